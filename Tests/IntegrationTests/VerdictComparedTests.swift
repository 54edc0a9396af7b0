@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
import ReachabilityModel
import XCTest

/// A turn compares each monitor's verdict (flags, reason, link, gateway, families) with the one
/// its last path was made from, and builds a path only when it moved or the pass's links, their
/// order or name servers did (`PathVerdict`). What a user sees of that: a change beside the
/// monitor's route delivers nothing; a change of what else a path shows still does.
final class VerdictComparedTests: XCTestCase {
    let plan = AddressPlan.ipv4

    func testAnAddressBesideTheRoute_buildsNoPathAndDeliversNothing() throws {
        try withPathNamespace { ns in
            let watched = try watchedOverV0(ns)
            defer { watched.stop() }
            let engine = try XCTUnwrap(watched.monitor.engine)
            let delivered = watched.paths.count
            let before = engine.currentCounters

            // A second address on v0: the route, the link and its availability stand as they were.
            try ns.ip("addr", "add", "10.99.0.1/24", "dev", "v0")
            try waitUntil("the engine evaluated the monitor again") {
                engine.currentCounters.unmovedVerdicts > before.unmovedVerdicts
            }
            settle(watched.monitor, watched.queue)
            XCTAssertEqual(engine.currentCounters.unmovedVerdicts - before.unmovedVerdicts, 1, "one monitor, one verdict")
            XCTAssertEqual(engine.currentCounters.lookups - before.lookups, 1,
                           "an IPv4 address moves no IPv6 answer: only the IPv4 default route is asked again")
            XCTAssertEqual(watched.paths.count, delivered, "nothing a path shows moved: \(watched.paths.all)")

            // The route moves: the verdict does, and the path is delivered.
            try ns.ip("-4", "route", "replace", "default", "via", "10.99.0.2", "dev", "v0")
            watched.wait(until: "the new gateway") { $0.gateways.map(\.description) == ["10.99.0.2"] }
        }
    }

    func testALinkThatBecomesAvailable_movesThePathThoughItsVerdictStands() throws {
        try withPathNamespace { ns in
            let watched = try watchedOverV0(ns)
            defer { watched.stop() }
            XCTAssertEqual(watched.last?.availableInterfaces.map(\.name), ["v0"])

            // A second link with an address: the route still leaves by v0, but the path lists v1.
            try ns.addLink("v1", peer: "v1p", address: "10.98.0.1/24")
            let path = watched.wait(until: "v1 among the available interfaces") {
                Set($0.availableInterfaces.map(\.name)) == ["v0", "v1"]
            }
            XCTAssertEqual(path?.interface?.name, "v0")
            XCTAssertEqual(path?.gateways.map(\.description), [plan.gateway])

            // And it leaves the list when it loses its carrier, again with the verdict as it was.
            try ns.ip("link", "set", "v1p", "down")
            watched.wait(until: "v1 gone from the available interfaces") { $0.availableInterfaces.map(\.name) == ["v0"] }
        }
    }

    /// A general monitor, watched, of a namespace whose one link `v0` holds the default route.
    private func watchedOverV0(_ ns: Namespace) throws -> WatchedMonitor {
        try ns.addLink("v0", peer: "v0p", address: plan.hostCIDR)
        try ns.ip("-4", "route", "add", "default", "via", plan.gateway)
        let watched = WatchedMonitor(try ns.generalMonitor())
        watched.wait(until: "satisfied over v0") { $0.status == .satisfied && $0.interface?.name == "v0" }
        return watched
    }
}
