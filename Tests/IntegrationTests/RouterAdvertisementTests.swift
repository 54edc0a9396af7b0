@testable import NetworkReachabilityCore
import Dispatch
import NetworkReachability
import XCTest
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// semantics.md, "The truth holds at every moment": routes learnt from Router Advertisements,
/// whose expiry, refresh and choice among routers the kernel does not announce. Each check
/// compares the monitors' deliveries (the general path and an address only a default route
/// covers) with `ip -6 route get` at that moment.
final class RouterAdvertisementTests: XCTestCase {
    func testExpiry_isToldWithinASecond_thoughNoMessageComes() throws {
        try withWatchedRouterLAN { lan, watched in
            let router = lan.gateways[0]
            let sent = try lan.advertise(lifetime: 4)
            try watched.waitUntilReachable(via: router)
            XCTAssertEqual(try lan.kernelRoute().gateway, router, "ip -6 route get agrees while the route lives")
            let engine = try XCTUnwrap(watched.monitors[0].engine)
            let looks = engine.currentCounters.silentStateLooks

            let told = try watched.waitUntilUnreachable("not reachable once the router's lifetime passed")
            let kernel = try lan.kernelRoute()
            XCTAssertNil(kernel.gateway, "ip -6 route get refuses once the route expired: \(kernel.line)")
            // The kernel still lists it (its collection, and the only message, come later): nothing announced the expiry.
            XCTAssertTrue(try lan.tableLists(gateway: router), "the expired route is still in the table")
            XCTAssertGreaterThan(engine.currentCounters.silentStateLooks, looks, "the engine's expiry timer asked again")
            for delivery in told {
                let late = delivery.at.milliseconds(since: sent.after + .seconds(4))
                XCTAssertGreaterThanOrEqual(delivery.at.milliseconds(since: sent.before + .seconds(4)), 0, "not told before the expiry")
                XCTAssertLessThanOrEqual(late, 1500, "told within 1.5 s of the expiry")
                print("expiry told \(late) ms after the route expired: \(delivery.path)")
            }
        }
    }

    func testRefreshBeforeExpiry_movesTheExpiry() throws {
        try withWatchedRouterLAN { lan, watched in
            let router = lan.gateways[0]
            let first = try lan.advertise(lifetime: 4)
            try watched.waitUntilReachable(via: router)
            pause(until: first.before + .seconds(2))
            let refresh = try lan.advertise(lifetime: 4)
            pause(until: first.after + .milliseconds(4500))
            // Past the first expiry: the refresh (which the kernel does not announce) holds.
            XCTAssertEqual(try lan.kernelRoute().gateway, router, "ip -6 route get still routes via the router")
            XCTAssertEqual(watched.delivered(after: first.after).filter { $0.path.status != .satisfied }.map(\.path), [],
                           "no false 'not reachable' at the first expiry")
            let told = try watched.waitUntilUnreachable("not reachable once the refreshed lifetime passed")
            XCTAssertNil(try lan.kernelRoute().gateway, "ip -6 route get refuses")
            for delivery in told {
                XCTAssertGreaterThanOrEqual(delivery.at.milliseconds(since: refresh.before + .seconds(4)), 0, "not told before the refreshed expiry")
                XCTAssertLessThanOrEqual(delivery.at.milliseconds(since: refresh.after + .seconds(4)), 1500, "told within 1.5 s of it")
            }
        }
    }

    func testAdvertisementAfterExpiry_refreshesInPlace_andIsToldWithinSeconds() throws {
        try withWatchedRouterLAN { lan, watched in
            let router = lan.gateways[0]
            try lan.advertise(lifetime: 2)
            try watched.waitUntilReachable(via: router)
            try watched.waitUntilUnreachable("not reachable once the lifetime passed")
            // Expired, not collected: the next advertisement refreshes it in place, with no message.
            XCTAssertTrue(try lan.tableLists(gateway: router), "the expired route is still in the table")
            let again = try lan.advertise(lifetime: 60)
            let told = try watched.waitUntilReachable(via: router, "reachable again")
            XCTAssertEqual(try lan.kernelRoute().gateway, router, "ip -6 route get routes via the router again")
            for delivery in told {
                let delay = delivery.at.milliseconds(since: again.after)
                XCTAssertLessThanOrEqual(delay, 3000, "told within a few seconds of the refresh")
                print("silent refresh told \(delay) ms after the advertisement")
            }
        }
    }

    func testLifetimeZero_isNotReachableAtOnce() throws {
        try withWatchedRouterLAN { lan, watched in
            let router = lan.gateways[0]
            try lan.advertise(lifetime: 300)
            try watched.waitUntilReachable(via: router)
            let withdrawn = try lan.advertise(lifetime: 0)
            let told = try watched.waitUntilUnreachable("not reachable")
            XCTAssertNil(try lan.kernelRoute().gateway, "ip -6 route get refuses")
            XCTAssertFalse(try lan.tableLists(gateway: router), "a lifetime of 0 deletes the route")
            for delivery in told {
                XCTAssertLessThanOrEqual(delivery.at.milliseconds(since: withdrawn.after), 1000, "told at once")
            }
        }
    }

    func testPreferredRouterFailing_movesThePathToTheOther() throws {
        try withWatchedRouterLAN(routers: 2) { lan, watched in
            let (preferred, other) = (lan.gateways[0], lan.gateways[1])
            try lan.advertise(from: 0, lifetime: 300, preference: "high")
            try lan.advertise(from: 1, lifetime: 300, preference: "low")
            try watched.waitUntilEach("reachable via the preferred router") {
                $0.path.status == .satisfied && $0.gateway == preferred && $0.path.interface?.name == "c0"
            }
            XCTAssertEqual(try lan.kernelRoute().gateway, preferred, "ip -6 route get picks the preferred router")
            let engine = try XCTUnwrap(watched.monitors[0].engine)
            let looks = engine.currentCounters.silentStateLooks
            // The preferred router stops answering; traffic makes the kernel probe it, and fail it.
            try lan.silence(router: 0)
            try lan.sendTraffic()
            try waitUntil("ip -6 route get moved to the other router") { try lan.kernelRoute().gateway == other }
            let moved = DispatchTime.now()
            let told = try watched.waitUntilEach("moved to the other router, as the kernel did") {
                $0.path.status == .satisfied && $0.gateway == other && $0.path.interface?.name == "c1"
            }
            XCTAssertEqual(try lan.kernelRoute().gateway, other, "ip -6 route get still picks the other router")
            XCTAssertGreaterThan(engine.currentCounters.silentStateLooks, looks, "the router's neighbour message asked again")
            for delivery in told {
                print("router failure told \(delivery.at.milliseconds(since: moved)) ms after ip route get first showed it")
            }
        }
    }
}
