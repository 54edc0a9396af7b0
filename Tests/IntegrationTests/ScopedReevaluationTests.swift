@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// A route event moves only destinations inside its prefix: targets outside it are not asked about
/// again, and a target inside it sees the change. The kernel's route filter (`RouteEventWatch`)
/// keeps route messages about no monitored destination from the engine; these tests ask about more
/// destinations than it holds, so that every route message reaches the engine, as with many monitors.
final class ScopedReevaluationTests: XCTestCase {
    func testRouteChurnOutsideATarget_asksTheKernelNothing_andMovesNoCallback() throws {
        try withNamespace { ns in
            // Given: a scheduled monitor of an on-link address
            try ns.addLAN(.ipv4, linkLocal: false)  // no late DAD events: only the routes below change
            let monitor = try ns.monitor(AddressPlan.ipv4.onLink)
            let flags = Recorder<ReachabilityFlags>()
            let queue = DispatchQueue(label: "scoped")
            monitor.setCallback { flags.append($0) }
            monitor.setDispatchQueue(queue)
            flags.wait(forCount: 1)
            // And: more destinations asked about than the kernel's filter holds
            for index in 0...RouteEventWatch.capacity {
                _ = try ns.monitor("10.9.1.\(index)").flags()
            }
            let engine = try XCTUnwrap(monitor.engine)
            XCTAssertEqual(engine.onLoop { $0.sockets?.events.routeWatch.passesEverything }, true,
                           "test setup: the filter still drops route messages")
            try waitUntilQuiet(engine)
            let before = try readQueued(engine)

            // When: routes come and go far away from it
            for net in 1...20 {
                try ns.ip("-4", "route", "add", "198.51.\(net).0/24", "via", AddressPlan.ipv4.gateway, "dev", "v0")
                try ns.ip("-4", "route", "del", "198.51.\(net).0/24")
            }
            let after = try readQueued(engine)
            settle(monitor, queue)

            // Then: the engine read them, asked the kernel nothing, and no callback came
            XCTAssertEqual(after.kernelEvents, before.kernelEvents + 40, "the 40 route events")
            XCTAssertGreaterThan(after.scopedReevaluations, before.scopedReevaluations)
            XCTAssertEqual(after.lookups, before.lookups, "route events outside the target's address asked the kernel again")
            XCTAssertEqual(flags.all, [[.reachable, .isDirect]])

            // When: a route inside the target's prefix appears
            try ns.ip("-4", "route", "add", "unreachable", "\(AddressPlan.ipv4.onLink)/32")

            // Then: it is asked about again and reports the change
            flags.wait(forCount: 2)
            XCTAssertEqual(flags.all.last, [])
            XCTAssertGreaterThan(engine.currentCounters.lookups, after.lookups)
        }
    }
}
