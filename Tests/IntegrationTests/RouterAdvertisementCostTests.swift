@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import Dispatch
import XCTest
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// What answers that stop being true without a message cost: nothing while no answer depends on
/// an expiring route or a router's neighbour state, and no pass for a LAN's neighbour churn.
final class RouterAdvertisementCostTests: XCTestCase {
    func testNothingExpiring_noTimerAndNoGroupJoined() throws {
        try withNamespace { ns in
            // A static IPv4 LAN: nothing expires, and no IPv6 router is chosen by neighbour state.
            try ns.addLAN(.ipv4)
            try ns.ip("route", "add", "default", "via", AddressPlan.ipv4.gateway)
            let monitor = try ns.generalMonitor()
            let paths = Recorder<NetworkPath>()
            monitor.pathUpdateHandler = { paths.append($0) }
            XCTAssertTrue(monitor.setDispatchQueue(DispatchQueue(label: #function)))
            defer { monitor.unschedule() }
            paths.wait(until: "reachable") { $0.last?.status == .satisfied }
            let engine = try XCTUnwrap(monitor.engine)
            let state = try XCTUnwrap(engine.onLoop { $0.expiry })
            XCTAssertNil(state.timerDue, "no expiry asked for")
            XCTAssertEqual(engine.onLoop { $0.effects.isArmed(.expiry) }, false, "no timer on the loop")
            XCTAssertEqual(state.watchedRouters, [], "the neighbour group is not joined")
            XCTAssertFalse(state.watchingRefresh, "the ND user-option group is not joined")
            XCTAssertEqual(engine.currentCounters.silentStateLooks, 0)
            XCTAssertEqual(try ns.engineEventSocket().groups & (1 << 2), 0, "the kernel lists no RTNLGRP_NEIGH membership")
        }
    }

    func testNeighbourChurnOfTheLAN_costsNoPass() throws {
        try withWatchedRouterLAN { lan, watched in
            try lan.advertise(lifetime: 300)
            try watched.waitUntilReachable(via: lan.gateways[0])
            let engine = try XCTUnwrap(watched.monitors[0].engine)
            XCTAssertEqual(engine.onLoop { $0.expiry.watchedRouters.count }, 1, "the router's neighbour entry is watched")
            let before = engine.currentCounters
            // Fifty hosts of the LAN come and go: neighbour messages the engine reads and drops.
            for host in 1...50 {
                try lan.client.ip("-6", "neigh", "add", "fe80::1:\(String(host, radix: 16))", "lladdr", "02:00:00:00:00:01",
                                  "dev", "c0", "nud", "reachable")
            }
            try lan.client.ip("-6", "neigh", "flush", "dev", "c0", "nud", "reachable")
            try waitUntil("the engine read the neighbour messages") { engine.currentCounters.kernelEvents >= before.kernelEvents + 100 }
            XCTAssertEqual(engine.currentCounters.reevaluations, before.reevaluations, "no pass for the LAN's hosts")
            XCTAssertEqual(engine.currentCounters.lookups, before.lookups, "no lookup for the LAN's hosts")
        }
    }
}
