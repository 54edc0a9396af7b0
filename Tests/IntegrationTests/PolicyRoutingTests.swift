import NetworkReachability
import XCTest

/// Policy routing: the route is the one the kernel picks after its rules (`ip rule`), as `ip route get` shows.
final class PolicyRoutingTests: XCTestCase {
    func testRuleToTable100_withRoute_isReachable_IPv4() throws { try ruleWithRoute(.ipv4) }
    func testRuleToTable100_withRoute_isReachable_IPv6() throws { try ruleWithRoute(.ipv6) }

    private func ruleWithRoute(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a LAN whose main table has no route to net(60)
            try ns.addLAN(plan, remoteRoute: false)
            let monitor = try ns.monitor(plan.inNet(60))
            XCTAssertEqual(try monitor.flags(), [], "control: no route to \(plan.inNet(60)) in the main table")
            // When a rule sends net(60) to table 100, which routes it via the gateway
            try ns.ip(plan.family, "route", "add", plan.net(60), "via", plan.gateway, "dev", "v0", "table", "100")
            try ns.ip(plan.family, "rule", "add", "to", plan.net(60), "table", "100")
            // Then it is reachable via table 100's gateway
            try assertTarget(monitor, in: ns, kernel: .destination(plan.inNet(60)), is: [.reachable],
                             interface: "v0", gateways: [plan.gateway])
        }
    }

    func testRuleToTable100_withUnreachableRoute_overridesMainTable_IPv4() throws { try ruleWithUnreachable(.ipv4) }
    func testRuleToTable100_withUnreachableRoute_overridesMainTable_IPv6() throws { try ruleWithUnreachable(.ipv6) }

    private func ruleWithUnreachable(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a main table that routes net(61) via the gateway
            try ns.addLAN(plan, remoteRoute: false)
            try ns.ip(plan.family, "route", "add", plan.net(61), "via", plan.gateway, "dev", "v0")
            let monitor = try ns.monitor(plan.inNet(61))
            XCTAssertEqual(try monitor.flags(), [.reachable], "control: the main table routes \(plan.inNet(61))")
            // When a rule ahead of main sends net(61) to table 100, where it is unreachable
            try ns.ip(plan.family, "route", "add", "unreachable", plan.net(61), "table", "100")
            try ns.ip(plan.family, "rule", "add", "to", plan.net(61), "table", "100")
            // Then it has no flags, and the reason names the route's type
            try assertTarget(monitor, in: ns, kernel: .destination(plan.inNet(61)), is: [], reason: .unreachableRoute)
        }
    }

    func testThrowRouteInRuleTable_fallsThroughToMainTable_IPv4() throws { try throwInRuleTable(.ipv4) }
    func testThrowRouteInRuleTable_fallsThroughToMainTable_IPv6() throws { try throwInRuleTable(.ipv6) }

    /// A `throw` route ends the lookup in its table only; the kernel goes on with the next rule.
    private func throwInRuleTable(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given main routes net(62) via the gateway, and a rule sends net(62) to table 100 first
            try ns.addLAN(plan, remoteRoute: false)
            try ns.ip(plan.family, "route", "add", plan.net(62), "via", plan.gateway, "dev", "v0")
            try ns.ip(plan.family, "rule", "add", "to", plan.net(62), "table", "100")
            // When table 100 throws net(62)
            try ns.ip(plan.family, "route", "add", "throw", plan.net(62), "table", "100")
            // Then the kernel falls through to main: reachable via the gateway
            try assertTarget(try ns.monitor(plan.inNet(62)), in: ns, kernel: .destination(plan.inNet(62)), is: [.reachable],
                             interface: "v0", gateways: [plan.gateway])
        }
    }
}
