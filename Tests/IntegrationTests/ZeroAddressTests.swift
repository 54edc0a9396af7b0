import NetworkReachability
import XCTest

/// semantics.md: the zero address (`0.0.0.0`, `::`) asks about the default route of its family:
/// the route a global destination that no more specific route matches would take.
final class ZeroAddressTests: XCTestCase {
    func testZeroAddress_withDefaultViaGateway_isReachable_IPv4() throws { try defaultViaGateway(.ipv4) }
    func testZeroAddress_withDefaultViaGateway_isReachable_IPv6() throws { try defaultViaGateway(.ipv6) }

    private func defaultViaGateway(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            try ns.addLAN(plan)
            try ns.ip(plan.family, "route", "add", "default", "via", plan.gateway, "dev", "v0")
            try assertTarget(try ns.monitor(plan.zero), in: ns, kernel: .zero(plan), is: [.reachable],
                             interface: "v0", gateways: [plan.gateway])
        }
    }

    func testZeroAddress_withOnLinkDefault_isReachableAndDirect_IPv4() throws { try onLinkDefault(.ipv4) }
    func testZeroAddress_withOnLinkDefault_isReachableAndDirect_IPv6() throws { try onLinkDefault(.ipv6) }

    /// "It is never `isDirect` unless the default route itself has no gateway."
    private func onLinkDefault(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            try ns.addLAN(plan)
            try ns.ip(plan.family, "route", "add", "default", "dev", "v0")
            try assertTarget(try ns.monitor(plan.zero), in: ns, kernel: .zero(plan), is: [.reachable, .isDirect],
                             interface: "v0", gateways: [])
        }
    }

    func testZeroAddress_withoutDefault_hasNoFlags_IPv4() throws { try withoutDefault(.ipv4) }
    func testZeroAddress_withoutDefault_hasNoFlags_IPv6() throws { try withoutDefault(.ipv6) }

    private func withoutDefault(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a LAN and a route to one remote network, but no default
            try ns.addLAN(plan)
            try assertTarget(try ns.monitor(plan.zero), in: ns, kernel: .zero(plan), is: [], reason: .noRoute)
        }
    }

    func testZeroAddress_withUnreachableDefault_hasNoFlags_IPv4() throws { try unreachableDefault(.ipv4) }
    func testZeroAddress_withUnreachableDefault_hasNoFlags_IPv6() throws { try unreachableDefault(.ipv6) }

    private func unreachableDefault(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            try ns.addLAN(plan)
            try ns.ip(plan.family, "route", "add", "unreachable", "default")
            try assertTarget(try ns.monitor(plan.zero), in: ns, kernel: .zero(plan), is: [], reason: .unreachableRoute)
        }
    }

    func testZeroAddress_withDefaultOverLinkWithoutCarrier_isUnsatisfied_IPv4() throws { try defaultWithoutCarrier(.ipv4) }
    func testZeroAddress_withDefaultOverLinkWithoutCarrier_isUnsatisfied_IPv6() throws { try defaultWithoutCarrier(.ipv6) }

    private func defaultWithoutCarrier(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            try ns.addLAN(plan)
            try ns.ip(plan.family, "route", "add", "default", "via", plan.gateway, "dev", "v0")
            try ns.ip("link", "set", "v0p", "down")
            try ns.waitForLink("v0", carrier: false)
            try assertTarget(try ns.monitor(plan.zero), in: ns, kernel: .zero(plan), is: [.reachable, .connectionRequired],
                             reason: .noCarrier, interface: "v0", gateways: [plan.gateway])
        }
    }

    /// Split-tunnel style routes to well-known public resolvers, which cover no other destination.
    private func publicResolverNets(_ plan: AddressPlan) -> [String] {
        plan.family == "-4"
            ? ["8.8.8.0/24", "8.8.4.0/24", "1.1.1.0/24", "1.0.0.0/24", "9.9.9.0/24", "149.112.112.0/24",
               "208.67.222.0/24", "208.67.220.0/24"]
            : ["2001:4860:4860::/48", "2606:4700:4700::/48", "2620:fe::/48", "2620:119:35::/48", "2620:119:53::/48"]
    }

    func testZeroAddress_withoutDefault_butRoutesToPublicResolvers_hasNoFlags_IPv4() throws { try resolverRoutesOnly(.ipv4) }
    func testZeroAddress_withoutDefault_butRoutesToPublicResolvers_hasNoFlags_IPv6() throws { try resolverRoutesOnly(.ipv6) }

    /// Specific routes are not a default route: a global destination they do not cover has no route.
    private func resolverRoutesOnly(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            try ns.addLAN(plan)
            for net in publicResolverNets(plan) {
                try ns.ip(plan.family, "route", "add", net, "via", plan.gateway, "dev", "v0")
            }
            try assertTarget(try ns.monitor(plan.zero), in: ns, kernel: .zero(plan), is: [], reason: .noRoute)
        }
    }

    func testZeroAddress_withDefault_andPublicResolversBlackholed_isReachable_IPv4() throws { try resolversBlocked(.ipv4) }
    func testZeroAddress_withDefault_andPublicResolversBlackholed_isReachable_IPv6() throws { try resolversBlocked(.ipv6) }

    /// More specific refusing routes do not change what the default route does for everything else.
    private func resolversBlocked(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            try ns.addLAN(plan)
            try ns.ip(plan.family, "route", "add", "default", "via", plan.gateway, "dev", "v0")
            for net in publicResolverNets(plan) {
                try ns.ip(plan.family, "route", "add", "blackhole", net)
            }
            try assertTarget(try ns.monitor(plan.zero), in: ns, kernel: .zero(plan), is: [.reachable],
                             interface: "v0", gateways: [plan.gateway])
        }
    }
}

/// semantics.md: `PathMonitor()` is the general path, the better of the two zero addresses.
final class GeneralPathTests: XCTestCase {
    func testGeneralPath_withIPv4DefaultOnly_isSatisfied() throws { try oneFamily(.ipv4) }
    func testGeneralPath_withIPv6DefaultOnly_isSatisfied() throws { try oneFamily(.ipv6) }

    private func oneFamily(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            try ns.addLAN(plan)
            try ns.ip(plan.family, "route", "add", "default", "via", plan.gateway, "dev", "v0")
            let monitor = try ns.generalMonitor()
            try assertTarget(monitor, in: ns, kernel: .general, is: [.reachable], interface: "v0", gateways: [plan.gateway])
            let path = monitor.currentPath
            XCTAssertEqual(path.supportsIPv4, plan.family == "-4", "supportsIPv4: \(path)")
            XCTAssertEqual(path.supportsIPv6, plan.family == "-6", "supportsIPv6: \(path)")
        }
    }

    func testGeneralPath_withoutDefaultRoutes_isUnsatisfied() throws {
        try withNamespace { ns in
            try ns.addVeth("v0", addresses: [AddressPlan.ipv4.hostCIDR, AddressPlan.ipv6.hostCIDR])
            try ns.waitForLink("v0", carrier: true)
            let monitor = try ns.generalMonitor()
            try assertTarget(monitor, in: ns, kernel: .general, is: [], reason: .noRoute)
            XCTAssertFalse(monitor.currentPath.supportsIPv4)
            XCTAssertFalse(monitor.currentPath.supportsIPv6)
        }
    }

    func testGeneralPath_withOnlyADefaultWithoutCarrier_isUnsatisfied() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan, remoteRoute: false)
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway, "dev", "v0")
            try ns.ip("link", "set", "v0p", "down")
            try ns.waitForLink("v0", carrier: false)
            try assertTarget(try ns.generalMonitor(), in: ns, kernel: .general, is: [.reachable, .connectionRequired],
                             reason: .noCarrier, interface: "v0", gateways: [plan.gateway])
        }
    }

    func testGeneralPath_supportsDNS_followsTheNamespacesResolvConf() throws {
        try withNamespace { ns in
            // `ip netns exec` puts /etc/netns/NAME/resolv.conf in place of /etc/resolv.conf
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            // A satisfied path: one without a usable interface supports no DNS whatever the file says.
            try ns.ip("route", "add", "default", "via", plan.gateway)
            try ns.setResolvConf("# no name server\nsearch example.org\n")
            XCTAssertFalse(try ns.generalMonitor().currentPath.supportsDNS, "a resolv.conf without nameserver")
            try ns.setResolvConf("nameserver 192.0.2.53\n")
            XCTAssertTrue(try ns.generalMonitor().currentPath.supportsDNS, "a resolv.conf with a nameserver")
        }
    }

    func testGeneralPath_prefersTheFamilyWhoseDefaultHasCarrier() throws {
        try withNamespace { ns in
            // Given an IPv4 default over v0, which has no carrier, and an IPv6 default over v1, which has
            let (v4, v6) = (AddressPlan.ipv4, AddressPlan.ipv6)
            try ns.addLAN(v4, device: "v0", remoteRoute: false)
            try ns.ip("-4", "route", "add", "default", "via", v4.gateway, "dev", "v0")
            try ns.ip("link", "set", "v0p", "down")
            try ns.waitForLink("v0", carrier: false)
            try ns.addVeth("v1", addresses: [v6.second.hostCIDR])
            try ns.waitForLink("v1", carrier: true)
            try ns.ip("-6", "route", "add", "default", "via", v6.second.gateway, "dev", "v1")
            // Then the general path is the IPv6 one: reachable
            let monitor = try ns.generalMonitor()
            try assertTarget(monitor, in: ns, kernel: .general, is: [.reachable], interface: "v1", gateways: [v6.second.gateway])
            XCTAssertFalse(monitor.currentPath.supportsIPv4, "the IPv4 default needs a connection: \(monitor.currentPath)")
            XCTAssertTrue(monitor.currentPath.supportsIPv6)
        }
    }

    func testGeneralPath_availableInterfaces_areUpWithCarrierAndAddress_defaultRouteInterfaceFirst() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv4
            // v0: carrier and address. v1: carrier, address, and the default route. v2: address, no carrier.
            // v3: carrier, no address. The peers: carrier, no address. (No fe80:: addresses anywhere.)
            try ns.addVeth("v0", addresses: [plan.hostCIDR], linkLocal: false)
            try ns.addVeth("v1", addresses: [plan.second.hostCIDR], linkLocal: false)
            try ns.addVeth("v2", addresses: ["10.29.0.2/24"], peerUp: false, linkLocal: false)
            try ns.addVeth("v3", linkLocal: false)
            for device in ["v0", "v1", "v3"] { try ns.waitForLink(device, carrier: true) }
            try ns.waitForLink("v2", carrier: false)
            try ns.ip("-4", "route", "add", "default", "via", plan.second.gateway, "dev", "v1")
            let path = try ns.generalMonitor().currentPath
            let names = path.availableInterfaces.map(\.name)
            XCTAssertEqual(names.first, "v1", "the default route's interface comes first: \(names)")
            XCTAssertTrue(names.contains("v0"), "v0 is up, has carrier and an address: \(names)")
            for absent in ["v2", "v3", "v0p", "v1p", "v2p", "v3p"] {
                XCTAssertFalse(names.contains(absent), "\(absent) lacks carrier or an address: \(names)")
            }
        }
    }
}
