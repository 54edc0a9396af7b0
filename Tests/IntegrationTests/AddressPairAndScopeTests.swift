import NetworkReachability
import XCTest

/// semantics.md, targets: a local and a remote address (`ip route get REMOTE from LOCAL`).
final class AddressPairTests: XCTestCase {
    func testPair_withLocalAddressTheHostHolds_isReachable_IPv4() throws { try ownedLocal(.ipv4) }
    func testPair_withLocalAddressTheHostHolds_isReachable_IPv6() throws { try ownedLocal(.ipv6) }

    private func ownedLocal(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            try ns.addLAN(plan)
            let monitor = try ns.monitor(local: plan.host, remote: plan.remote)
            try assertTarget(monitor, in: ns, kernel: .pair(local: plan.host, remote: plan.remote), is: [.reachable],
                             interface: "v0", gateways: [plan.gateway])
        }
    }

    func testPair_withLocalAddressTheHostDoesNotHold_isUnavailable_IPv4() throws { try foreignLocal(.ipv4) }
    func testPair_withLocalAddressTheHostDoesNotHold_isUnavailable_IPv6() throws { try foreignLocal(.ipv6) }

    private func foreignLocal(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a reachable remote address
            try ns.addLAN(plan)
            XCTAssertEqual(try ns.monitor(plan.remote).flags(), [.reachable], "control: the remote alone is reachable")
            // When the pair's local address is one no interface holds
            let monitor = try ns.monitor(local: plan.foreign, remote: plan.remote)
            // Then the pair is not reachable, and the path says why
            try assertTarget(monitor, in: ns, kernel: .pair(local: plan.foreign, remote: plan.remote), is: [],
                             reason: .localAddressUnavailable)
        }
    }
}

/// A link-local IPv6 address with `%scope` follows the route of the named link.
final class LinkLocalScopeTests: XCTestCase {
    /// v0 has carrier; v1 had carrier (so it has its fe80::/64 route) and then lost it.
    private func addTwoLinks(_ ns: Namespace) throws {
        try ns.addVeth("v0")
        try ns.addVeth("v1")
        try ns.waitForLink("v0", carrier: true)
        try ns.waitForLink("v1", carrier: true)
        try waitUntil("both links have their fe80::/64 route") {
            let routes = try ns.ip("-6", "route", "show", "table", "main")
            return routes.contains("fe80::/64 dev v0") && routes.contains("fe80::/64 dev v1")
        }
        try ns.ip("link", "set", "v1p", "down")
        try ns.waitForLink("v1", carrier: false)
    }

    func testLinkLocal_scopedByName_followsThatLink() throws {
        try withNamespace { ns in
            try addTwoLinks(ns)
            try assertTarget(try ns.monitor("fe80::1%v0"), in: ns, kernel: .destination("fe80::1", outputDevice: "v0"),
                             is: [.reachable, .isDirect], interface: "v0", gateways: [])
            try assertTarget(try ns.monitor("fe80::1%v1"), in: ns, kernel: .destination("fe80::1", outputDevice: "v1"),
                             is: [.reachable, .connectionRequired, .isDirect], reason: .noCarrier, interface: "v1", gateways: [])
        }
    }

    func testLinkLocal_scopedByIndex_followsThatLink() throws {
        try withNamespace { ns in
            try addTwoLinks(ns)
            let v0 = try ns.index(of: "v0")
            let v1 = try ns.index(of: "v1")
            try assertTarget(try ns.monitor("fe80::1%\(v0)"), in: ns, kernel: .destination("fe80::1", outputDevice: "v0"),
                             is: [.reachable, .isDirect], interface: "v0")
            try assertTarget(try ns.monitor("fe80::1%\(v1)"), in: ns, kernel: .destination("fe80::1", outputDevice: "v1"),
                             is: [.reachable, .connectionRequired, .isDirect], reason: .noCarrier, interface: "v1")
        }
    }

    func testLinkLocal_scopedToUnknownInterface_hasNoFlags() throws {
        try withNamespace { ns in
            try addTwoLinks(ns)
            // `ip route get fe80::1 oif nrxnope0` refuses: there is no such device
            try assertTarget(try ns.monitor("fe80::1%nrxnope0"), in: ns, kernel: .destination("fe80::1", outputDevice: "nrxnope0"),
                             is: [], reason: .noRoute)
        }
    }
}
