@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
import ReachabilityModel
import ReachabilityNetlink
import XCTest

/// A route deleted alone is not waited for: the kernel has nearly always removed it when the
/// engine asks, and an answer that may still be it is asked again after a wait for the
/// kernel's routing lock (`RouteLookupSocket.unconfirmedDeletion`).
final class UnconfirmedDeletionTests: XCTestCase {
    let plan = AddressPlan.ipv4

    func testAnAnswerThatMayBeTheDeletedRoute_isAskedAgainAfterAWait() throws {
        try withNamespace { ns in
            try ns.addLAN(plan, linkLocal: false)
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway)
            let socket = try NamespaceEntry.run(in: ns.reference) { () throws(NetlinkError) in try RouteLookupSocket() }
            let toProbe = RouteRequest(destination: try IPAddress(plan.globalProbe))
            guard case .route(let route) = socket.lookup(toProbe) else { return XCTFail("no default route") }

            // The route is still there: as if its deletion had been announced and not yet done.
            socket.unconfirmedDeletion = DeletedRoute(family: .ipv4, type: .unicast, table: route.table, prefixLength: 0,
                                                      outputInterface: route.outputInterface, gateway: route.gateways.first)
            XCTAssertEqual(socket.lookup(toProbe), .route(route), "after the wait, the kernel's answer stands")
            XCTAssertEqual(socket.deletionConfirmations, 1)
            XCTAssertNil(socket.unconfirmedDeletion, "a wait confirms the deletion")

            // An answer that cannot be the deleted route costs no wait.
            socket.unconfirmedDeletion = DeletedRoute(family: .ipv4, type: .unicast, table: route.table, prefixLength: 0,
                                                      outputInterface: route.outputInterface, gateway: route.gateways.first)
            _ = socket.lookup(RouteRequest(destination: try IPAddress(plan.onLink)))
            _ = socket.lookup([toProbe, RouteRequest(destination: try IPAddress(plan.onLink))])
            XCTAssertEqual(socket.deletionConfirmations, 2, "the batch's default-route answer may be it; the on-link ones not")
        }
    }

    func testADeletedDefaultRoute_isSeenGoneWithoutAWait() throws {
        try withNamespace { ns in
            try ns.addLAN(plan, linkLocal: false)
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway)
            let monitor = try ns.generalMonitor()
            let flags = Recorder<ReachabilityFlags>()
            monitor.record(flags: flags)
            let queue = callbackQueue()
            monitor.setDispatchQueue(queue)
            flags.wait(until: "reachable") { $0.last == [.reachable] }
            let engine = try XCTUnwrap(monitor.engine)
            let before = engine.currentCounters

            try ns.ip("-4", "route", "del", "default", "via", plan.gateway)
            flags.wait(until: "no route") { $0.last == [] }
            XCTAssertEqual(engine.currentCounters.settles, before.settles, "a route deleted alone is not waited for")
            XCTAssertEqual(try ns.generalMonitor().flags(), [], "a fresh read agrees")

            // The same route added back, by another request: that request's message says the
            // deletion is over, so its answer (the very route deleted) is not waited for either.
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway)
            flags.wait(until: "reachable again") { $0.last == [.reachable] }
            XCTAssertEqual(engine.currentCounters.settles, before.settles)
            XCTAssertEqual(engine.onLoop { $0.sockets?.lookup.deletionConfirmations }, 0, "no wait in the whole flap")
            monitor.unschedule()
        }
    }
}
