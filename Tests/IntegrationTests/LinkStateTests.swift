import NetworkReachability
import XCTest

/// semantics.md: the state of the route's interface. Admin down (the kernel removes the link's
/// routes, so: no route), no carrier (the veth peer is down) and operstate dormant.
final class LinkStateTests: XCTestCase {
    func testInterfaceAdministrativelyDown_hasNoRoute_IPv4() throws { try adminDown(.ipv4) }
    func testInterfaceAdministrativelyDown_hasNoRoute_IPv6() throws { try adminDown(.ipv6) }

    private func adminDown(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a reachable remote network
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.remote)
            XCTAssertEqual(try monitor.flags(), [.reachable], "control: reachable before the link goes down")
            // When the interface is set administratively down
            try ns.ip("link", "set", "v0", "down")
            // Then the kernel dropped its routes: no flags, no route
            try assertTarget(monitor, in: ns, kernel: .destination(plan.remote), is: [], reason: .noRoute)
            try assertTarget(try ns.monitor(plan.onLink), in: ns, kernel: .destination(plan.onLink), is: [], reason: .noRoute)
        }
    }

    func testPeerDown_noCarrier_isUnsatisfied_IPv4() throws { try noCarrier(.ipv4) }
    func testPeerDown_noCarrier_isUnsatisfied_IPv6() throws { try noCarrier(.ipv6) }

    private func noCarrier(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a LAN whose veth peer goes down: v0 stays up but loses carrier
            try ns.addLAN(plan)
            try ns.ip("link", "set", "v0p", "down")
            try ns.waitForLink("v0", carrier: false)
            // Then a target behind a gateway and an on-link one need a connection
            try assertTarget(try ns.monitor(plan.remote), in: ns, kernel: .destination(plan.remote),
                             is: [.reachable, .connectionRequired], reason: .noCarrier, interface: "v0", gateways: [plan.gateway])
            try assertTarget(try ns.monitor(plan.onLink), in: ns, kernel: .destination(plan.onLink),
                             is: [.reachable, .connectionRequired, .isDirect], reason: .noCarrier, interface: "v0", gateways: [])
        }
    }

    func testDormantOperstate_isUnsatisfied_IPv4() throws { try dormant(.ipv4) }
    func testDormantOperstate_isUnsatisfied_IPv6() throws { try dormant(.ipv6) }

    private func dormant(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given v0 in link mode dormant: with carrier its operstate is DORMANT
            // (waiting for a supplicant), not UP
            try ns.addVeth("v0", addresses: [plan.hostCIDR], up: false)
            try ns.ip("link", "set", "v0", "mode", "dormant")
            try ns.ip("link", "set", "v0", "up")
            try ns.waitForLink("v0", state: "DORMANT")
            try ns.ip(plan.family, "route", "add", plan.remoteNet, "via", plan.gateway, "dev", "v0")
            // Then targets over it need a connection
            try assertTarget(try ns.monitor(plan.remote), in: ns, kernel: .destination(plan.remote),
                             is: [.reachable, .connectionRequired], reason: .noCarrier, interface: "v0", gateways: [plan.gateway])
            try assertTarget(try ns.monitor(plan.onLink), in: ns, kernel: .destination(plan.onLink),
                             is: [.reachable, .connectionRequired, .isDirect], reason: .noCarrier, interface: "v0")
        }
    }
}
