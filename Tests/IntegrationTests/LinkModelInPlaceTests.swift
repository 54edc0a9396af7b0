@testable import NetworkReachabilityCore
import ReachabilityModel
import XCTest

/// The engine keeps its links and addresses in step with libnl's caches message by message
/// (`LinkTables`, `LinkModel.apply`), never walking the caches again on a change. What a user
/// sees of that: links and addresses made, changed and removed while a monitor runs move its
/// path exactly as a monitor started afterwards sees it.
final class LinkModelInPlaceTests: XCTestCase {
    let plan = AddressPlan.ipv4

    func testABridgeMadeGivenAPortAndRemoved_whileWatched() throws {
        try withPathNamespace { ns in
            let watched = WatchedMonitor(try ns.generalMonitor())
            defer { watched.stop() }
            watched.wait(until: "no route yet") { $0.status == .unsatisfied }

            // A bridge with one veth port: the bridge's messages come in both families
            // (AF_UNSPEC, and AF_BRIDGE for its ports), as a host's container bridge sends them.
            try ns.ip("link", "add", "br0", "type", "bridge")
            try ns.ip("link", "add", "p0", "type", "veth", "peer", "name", "p0p")
            try ns.ip("link", "set", "p0", "master", "br0")
            for link in ["p0p", "p0", "br0"] { try ns.ip("link", "set", link, "up") }
            try ns.ip("addr", "add", plan.hostCIDR, "dev", "br0")
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway)
            watched.wait(until: "satisfied over the bridge") { $0.status == .satisfied && $0.interface?.name == "br0" }
            XCTAssertEqual(watched.last?.availableInterfaces.map(\.name), ["br0"], "a port carries no address of its own")

            // The port leaves: a bridge without ports has no carrier.
            try ns.ip("link", "set", "p0", "nomaster")
            watched.wait(until: "no carrier without a port") { $0.unsatisfiedReason == .noCarrier && $0.interface?.name == "br0" }
            try ns.ip("link", "set", "p0", "master", "br0")
            watched.wait(until: "satisfied with the port back") { $0.status == .satisfied && $0.interface?.name == "br0" }

            // A fresh monitor, whose engine read the caches whole, sees the same path.
            XCTAssertEqual(Seen(try ns.generalMonitor().currentPath), Seen(watched.last))

            try ns.ip("link", "del", "br0")
            watched.wait(until: "unsatisfied once the bridge is gone") {
                $0.status == .unsatisfied && !$0.availableInterfaces.contains { $0.name == "br0" }
            }
        }
    }

    func testAddressesComingAndGoingOnALink_moveItsPathOnly() throws {
        try withPathNamespace { ns in
            try ns.addLink("v0", peer: "v0p", address: nil)
            let watched = WatchedMonitor(try ns.generalMonitor())
            defer { watched.stop() }
            watched.wait(until: "no address, no route") { $0.status == .unsatisfied }

            try ns.ip("addr", "add", plan.hostCIDR, "dev", "v0")
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway)
            watched.wait(until: "satisfied over v0") { $0.status == .satisfied && $0.interface?.name == "v0" }
            // A second address, then the first one gone: the link keeps a route through the second.
            try ns.ip("addr", "add", "10.99.0.1/24", "dev", "v0")
            try ns.ip("addr", "del", plan.hostCIDR, "dev", "v0")
            try ns.ip("-4", "route", "replace", "default", "via", "10.99.0.2", "dev", "v0")
            watched.wait(until: "satisfied through the second address") {
                $0.status == .satisfied && $0.gateways.map(\.description) == ["10.99.0.2"]
            }
            XCTAssertEqual(Seen(try ns.generalMonitor().currentPath), Seen(watched.last), "a fresh monitor sees the same path")

            try ns.ip("addr", "flush", "dev", "v0")
            watched.wait(until: "unsatisfied once v0 holds no address") {
                $0.status == .unsatisfied && $0.availableInterfaces.isEmpty
            }
        }
    }

    /// What a user reads of a path: status, interface, gateways and the available interfaces.
    private struct Seen: Equatable {
        var status: String, interface: String?, gateways: [String], available: [String]

        init(_ path: NetworkPath?) {
            status = path.map { "\($0.status)" } ?? "none"
            interface = path?.interface?.name
            gateways = path?.gateways.map(\.description) ?? []
            available = path?.availableInterfaces.map(\.name) ?? []
        }
    }
}
