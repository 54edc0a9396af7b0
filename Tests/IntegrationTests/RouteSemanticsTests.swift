import NetworkReachability
import XCTest

/// semantics.md, "From the kernel to the flags": unicast routes with carrier, `local` routes and no route.
final class RouteSemanticsTests: XCTestCase {
    func testGatewayRoute_isReachable_IPv4() throws { try gatewayRoute(.ipv4) }
    func testGatewayRoute_isReachable_IPv6() throws { try gatewayRoute(.ipv6) }

    private func gatewayRoute(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a LAN with a route to a remote network via an on-link gateway
            try ns.addLAN(plan)
            // When monitoring an address of that network
            let monitor = try ns.monitor(plan.remote)
            // Then it is reachable through the gateway, and not direct
            try assertTarget(monitor, in: ns, kernel: .destination(plan.remote), is: [.reachable],
                             interface: "v0", interfaceType: .wiredEthernet, gateways: [plan.gateway])
        }
    }

    func testOnLinkDestination_isReachableAndDirect_IPv4() throws { try onLink(.ipv4) }
    func testOnLinkDestination_isReachableAndDirect_IPv6() throws { try onLink(.ipv6) }

    private func onLink(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.onLink)
            try assertTarget(monitor, in: ns, kernel: .destination(plan.onLink), is: [.reachable, .isDirect],
                             interface: "v0", interfaceType: .wiredEthernet, gateways: [])
        }
    }

    func testOwnAddress_isLocalAndDirect_IPv4() throws { try ownAddress(.ipv4) }
    func testOwnAddress_isLocalAndDirect_IPv6() throws { try ownAddress(.ipv6) }

    private func ownAddress(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.host)
            // The kernel answers with a `local` route over lo.
            try assertTarget(monitor, in: ns, kernel: .destination(plan.host), is: [.reachable, .isLocalAddress, .isDirect],
                             interface: "lo", gateways: [])
        }
    }

    func testLoopback_isLocalAndDirect_IPv4() throws { try loopback(.ipv4) }
    func testLoopback_isLocalAndDirect_IPv6() throws { try loopback(.ipv6) }

    private func loopback(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a namespace with only lo up
            let monitor = try ns.monitor(plan.loopback)
            try assertTarget(monitor, in: ns, kernel: .destination(plan.loopback), is: [.reachable, .isLocalAddress, .isDirect],
                             interface: "lo", interfaceType: .loopback, gateways: [])
        }
    }

    func testDestinationWithoutRoute_hasNoFlags_IPv4() throws { try noRoute(.ipv4) }
    func testDestinationWithoutRoute_hasNoFlags_IPv6() throws { try noRoute(.ipv6) }

    private func noRoute(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a LAN without a default route
            try ns.addLAN(plan)
            // When monitoring an address no route covers
            let monitor = try ns.monitor(plan.foreign)
            try assertTarget(monitor, in: ns, kernel: .destination(plan.foreign), is: [], reason: .noRoute)
        }
    }
}

/// semantics.md: `unreachable`, `blackhole`, `prohibit` and `throw` routes give no flags, even where
/// a default route would otherwise carry the packet; the reason names the route's type, but for
/// `throw`, which the kernel answers as no route.
final class RefusingRouteTests: XCTestCase {
    func testUnreachableRoute_hasNoFlags_unreachableRoute_IPv4() throws { try refusing("unreachable", .ipv4, .unreachableRoute) }
    func testUnreachableRoute_hasNoFlags_unreachableRoute_IPv6() throws { try refusing("unreachable", .ipv6, .unreachableRoute) }
    func testBlackholeRoute_hasNoFlags_blackholeRoute_IPv4() throws { try refusing("blackhole", .ipv4, .blackholeRoute) }
    func testBlackholeRoute_hasNoFlags_blackholeRoute_IPv6() throws { try refusing("blackhole", .ipv6, .blackholeRoute) }
    func testProhibitRoute_hasNoFlags_prohibitedRoute_IPv4() throws { try refusing("prohibit", .ipv4, .prohibitedRoute) }
    func testProhibitRoute_hasNoFlags_prohibitedRoute_IPv6() throws { try refusing("prohibit", .ipv6, .prohibitedRoute) }
    /// A `throw` route in the main table ends the lookup there; the default table is empty.
    func testThrowRoute_hasNoFlags_noRoute_IPv4() throws { try refusing("throw", .ipv4, .noRoute) }
    func testThrowRoute_hasNoFlags_noRoute_IPv6() throws { try refusing("throw", .ipv6, .noRoute) }

    private func refusing(_ type: String, _ plan: AddressPlan, _ reason: NetworkPath.UnsatisfiedReason,
                          function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a LAN with a working default route
            try ns.addLAN(plan, remoteRoute: false)
            try ns.ip(plan.family, "route", "add", "default", "via", plan.gateway, "dev", "v0")
            let control = try ns.monitor(plan.inNet(70))
            try assertTarget(control, in: ns, kernel: .destination(plan.inNet(70)), is: [.reachable], gateways: [plan.gateway])
            // When a more specific route of this type covers the target
            try ns.ip(plan.family, "route", "add", type, plan.net(71))
            let monitor = try ns.monitor(plan.inNet(71))
            // Then it has no flags, and the reason says which route refused
            try assertTarget(monitor, in: ns, kernel: .destination(plan.inNet(71)), is: [], reason: reason)
        }
    }
}
