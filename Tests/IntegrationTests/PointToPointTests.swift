import NetworkReachability
import XCTest

/// semantics.md: a point-to-point interface (tun) adds `transientConnection`.
final class PointToPointTests: XCTestCase {
    private func tunAddresses(_ plan: AddressPlan) -> (cidr: String, peer: String) {
        plan.family == "-4" ? ("10.40.0.1/24", "10.40.0.2") : ("2001:db8:40::1/64", "2001:db8:40::2")
    }

    /// t0 with an on-link route to net(41) and a gateway route to net(42).
    private func addTun(_ plan: AddressPlan, in ns: Namespace) throws {
        let tun = tunAddresses(plan)
        try ns.addTun("t0", addresses: [tun.cidr])
        try ns.ip(plan.family, "route", "add", plan.net(41), "dev", "t0")
        try ns.ip(plan.family, "route", "add", plan.net(42), "via", tun.peer, "dev", "t0")
    }

    func testTunWithoutReader_noCarrier_isTransientAndRequiresConnection_IPv4() throws { try tunWithoutCarrier(.ipv4) }
    func testTunWithoutReader_noCarrier_isTransientAndRequiresConnection_IPv6() throws { try tunWithoutCarrier(.ipv6) }

    private func tunWithoutCarrier(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a tun device that no process holds open: up, but no carrier
            try addTun(plan, in: ns)
            try ns.waitForLink("t0", carrier: false)
            // Then
            try assertTarget(try ns.monitor(plan.inNet(41)), in: ns, kernel: .destination(plan.inNet(41)),
                             is: [.reachable, .connectionRequired, .transientConnection, .isDirect], reason: .noCarrier,
                             interface: "t0", interfaceType: .other, gateways: [])
            try assertTarget(try ns.monitor(plan.inNet(42)), in: ns, kernel: .destination(plan.inNet(42)),
                             is: [.reachable, .connectionRequired, .transientConnection], reason: .noCarrier,
                             interface: "t0", gateways: [tunAddresses(plan).peer])
        }
    }

    func testTunHeldOpen_hasCarrier_isTransient_IPv4() throws { try tunWithCarrier(.ipv4) }
    func testTunHeldOpen_hasCarrier_isTransient_IPv6() throws { try tunWithCarrier(.ipv6) }

    private func tunWithCarrier(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a tun device that a process inside the namespace holds open: it has carrier
            try addTun(plan, in: ns)
            let holder = try TunCarrierHolder(device: "t0", namespace: ns)
            defer { holder.stop() }
            try ns.waitForLink("t0", carrier: true)
            // Then it is reachable and transient, direct only without a gateway
            try assertTarget(try ns.monitor(plan.inNet(41)), in: ns, kernel: .destination(plan.inNet(41)),
                             is: [.reachable, .transientConnection, .isDirect], interface: "t0", interfaceType: .other, gateways: [])
            try assertTarget(try ns.monitor(plan.inNet(42)), in: ns, kernel: .destination(plan.inNet(42)),
                             is: [.reachable, .transientConnection], interface: "t0", gateways: [tunAddresses(plan).peer])
        }
    }
}
