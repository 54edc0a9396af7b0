@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Issue 4: two veth links with default routes of different metrics. The general path follows the
/// route the kernel would use (`ip route get`), and `availableInterfaces` follow the routes' order:
/// the path's interface first, then by default-route metric.
final class PathFailoverTests: XCTestCase {
    private let primary = (device: "v0", cidr: "10.9.0.2/24", gateway: "10.9.0.1")
    private let secondary = (device: "v1", cidr: "10.19.0.2/24", gateway: "10.19.0.1")

    /// v0 (metric 100) and v1 (metric 200), both with carrier, an address and a default route; no
    /// IPv6 link-local addresses, so the peers (carrier, no address) are never available.
    private func addTwoDefaults(_ ns: Namespace) throws {
        try ns.addLink(primary.device, address: primary.cidr)
        try ns.addLink(secondary.device, address: secondary.cidr)
        try ns.ip("-4", "route", "add", "default", "via", primary.gateway, "dev", primary.device, "metric", "100")
        try ns.ip("-4", "route", "add", "default", "via", secondary.gateway, "dev", secondary.device, "metric", "200")
    }

    /// The state every failover test starts from: the path leaves by v0, both links available, v0 first.
    private func assertOnPrimary(_ watch: WatchedMonitor, _ ns: Namespace, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = watch.wait(until: "the path leaves by v0 with v0 and v1 available", file: file, line: line) {
            $0.interface?.name == "v0" && interfaceNames($0) == ["v0", "v1"]
        }
        XCTAssertEqual(path?.status, .satisfied, "\(String(describing: path))", file: file, line: line)
        XCTAssertEqual(path?.gateways.map(\.addressString), [primary.gateway], "\(String(describing: path))", file: file, line: line)
        XCTAssertEqual(path?.availableInterfaces.map(\.type), [.wiredEthernet, .wiredEthernet], file: file, line: line)
        try assertTarget(watch.monitor, in: ns, kernel: .general, is: [.reachable], interface: "v0", interfaceType: .wiredEthernet,
                         gateways: [primary.gateway], file: file, line: line)
        XCTAssertEqual(watch.monitor.currentPath.availableInterfaces.map(\.name), ["v0", "v1"], file: file, line: line)
    }

    // MARK: - The primary taken down

    func testPrimaryDown_movesToTheSecondary_inOnePass_withNoSecondLook() throws {
        try withPathNamespace { ns in
            try addTwoDefaults(ns)
            let watch = WatchedMonitor(try ns.generalMonitor())
            defer { watch.stop() }
            try assertOnPrimary(watch, ns)
            let engine = try XCTUnwrap(watch.monitor.engine)
            let before = engine.currentCounters
            let seen = watch.paths.count

            // When the primary is taken down: the kernel announces the link, then flushes its IPv4
            // routes with no message
            try ns.ip("link", "set", "v0", "down")

            // Then the first path told after it already leaves by v1: the engine waited for the
            // kernel to finish (no unsatisfied path in between), and needed no second look
            let failedOver = watch.wait(until: "the path moved to v1") { $0.interface?.name == "v1" }
            XCTAssertEqual(failedOver?.gateways.map(\.addressString), [secondary.gateway])
            XCTAssertEqual(watch.paths.all.dropFirst(seen).map { $0.interface?.name }, ["v1"], "\(watch.paths.all.dropFirst(seen))")
            XCTAssertGreaterThan(engine.currentCounters.settles, before.settles)
            XCTAssertEqual(engine.currentCounters.secondLooks, before.secondLooks)
            try assertTarget(watch.monitor, in: ns, kernel: .general, is: [.reachable], interface: "v1", interfaceType: .wiredEthernet,
                             gateways: [secondary.gateway])
        }
    }

    // MARK: - Carrier loss with ignore_routes_with_linkdown

    func testFailover_whenThePrimaryLosesCarrier_withIgnoreRoutesWithLinkdown_movesToTheSecondary() throws {
        try withPathNamespace { ns in
            // Given the kernel told to skip routes over links without carrier (all, and default for new links)
            try ns.setSysctl("net.ipv4.conf.all.ignore_routes_with_linkdown", "1")
            try ns.setSysctl("net.ipv4.conf.default.ignore_routes_with_linkdown", "1")
            try addTwoDefaults(ns)
            let watch = WatchedMonitor(try ns.generalMonitor())
            defer { watch.stop() }
            try assertOnPrimary(watch, ns)

            // When the primary loses carrier
            try ns.ip("link", "set", "v0p", "down")
            try ns.waitForLink("v0", carrier: false)

            // Then the kernel routes by v1, and so does the path; only v1 is available
            let failedOver = watch.wait(until: "the path moved to v1") { $0.interface?.name == "v1" }
            XCTAssertEqual(failedOver?.status, .satisfied, "\(String(describing: failedOver))")
            XCTAssertNil(failedOver?.unsatisfiedReason)
            XCTAssertEqual(failedOver?.flags, [.reachable])
            XCTAssertEqual(failedOver?.gateways.map(\.addressString), [secondary.gateway])
            XCTAssertEqual(interfaceNames(failedOver), ["v1"], "v0 has no carrier: \(String(describing: failedOver))")
            try assertTarget(watch.monitor, in: ns, kernel: .general, is: [.reachable], interface: "v1",
                             interfaceType: .wiredEthernet, gateways: [secondary.gateway])

            // When the carrier comes back, the path returns to v0, and v0 leads the list again
            try ns.ip("link", "set", "v0p", "up")
            try ns.waitForLink("v0", carrier: true)
            try assertOnPrimary(watch, ns)
            XCTAssertNil(firstRepeat(in: watch.paths.all), "the same path twice in a row: \(watch.paths.all)")
        }
    }

    /// With only `all` set (the per-link settings left at 0), the kernel ORs them: it still fails over.
    func testFailover_withOnlyTheAllSysctl_movesToTheSecondary() throws {
        try withPathNamespace { ns in
            try ns.setSysctl("net.ipv4.conf.all.ignore_routes_with_linkdown", "1")
            try addTwoDefaults(ns)
            XCTAssertEqual(try ns.sysctl("net.ipv4.conf.v0.ignore_routes_with_linkdown"), "0")
            let watch = WatchedMonitor(try ns.generalMonitor())
            defer { watch.stop() }
            try assertOnPrimary(watch, ns)

            try ns.ip("link", "set", "v0p", "down")
            try ns.waitForLink("v0", carrier: false)

            let failedOver = watch.wait(until: "the path moved to v1") { $0.interface?.name == "v1" }
            XCTAssertEqual(failedOver?.status, .satisfied, "\(String(describing: failedOver))")
            XCTAssertEqual(interfaceNames(failedOver), ["v1"])
            try assertTarget(watch.monitor, in: ns, kernel: .general, is: [.reachable], interface: "v1", gateways: [secondary.gateway])
        }
    }

    /// With the default sysctl (0) the kernel keeps routing by the primary although it lost carrier
    /// (`ip route get` still says `dev v0`, the FIB entry is marked linkdown): the path follows the
    /// kernel and requires a connection over v0, while v1 is the only available interface.
    func testNoFailover_withTheDefaultSysctl_thePathStaysOnThePrimaryAndRequiresAConnection() throws {
        try withPathNamespace { ns in
            XCTAssertEqual(try ns.sysctl("net.ipv4.conf.all.ignore_routes_with_linkdown"), "0", "a new namespace's default")
            try addTwoDefaults(ns)
            let watch = WatchedMonitor(try ns.generalMonitor())
            defer { watch.stop() }
            try assertOnPrimary(watch, ns)

            try ns.ip("link", "set", "v0p", "down")
            try ns.waitForLink("v0", carrier: false)

            let path = watch.wait(until: "the path has no carrier") { $0.unsatisfiedReason == .noCarrier }
            XCTAssertEqual(path?.interface?.name, "v0", "\(String(describing: path))")
            XCTAssertEqual(path?.unsatisfiedReason, .noCarrier)
            XCTAssertEqual(interfaceNames(path), ["v1"], "v0 has no carrier, so only v1 is available: \(String(describing: path))")
            try assertTarget(watch.monitor, in: ns, kernel: .general, is: [.reachable, .connectionRequired], reason: .noCarrier,
                             interface: "v0", gateways: [primary.gateway])
        }
    }

    /// The same over IPv6 (`net.ipv6.conf.all.ignore_routes_with_linkdown`), with on-link default
    /// routes so that router reachability (neighbour states) plays no part in the kernel's choice.
    func testFailover_IPv6_whenThePrimaryLosesCarrier_withIgnoreRoutesWithLinkdown_movesToTheSecondary() throws {
        try withPathNamespace { ns in
            try ns.setSysctl("net.ipv6.conf.all.ignore_routes_with_linkdown", "1")
            try ns.setSysctl("net.ipv6.conf.default.ignore_routes_with_linkdown", "1")
            try ns.addLink("v0", address: "2001:db8:9::2/64")
            try ns.addLink("v1", address: "2001:db8:19::2/64")
            try ns.ip("-6", "route", "add", "default", "dev", "v0", "metric", "100")
            try ns.ip("-6", "route", "add", "default", "dev", "v1", "metric", "200")
            let watch = WatchedMonitor(try ns.generalMonitor())
            defer { watch.stop() }
            let before = watch.wait(until: "the path leaves by v0, v1 second") { $0.interface?.name == "v0" && interfaceNames($0) == ["v0", "v1"] }
            XCTAssertEqual(before?.supportsIPv6, true, "\(String(describing: before))")
            XCTAssertEqual(before?.supportsIPv4, false, "\(String(describing: before))")
            try assertTarget(watch.monitor, in: ns, kernel: .general, is: [.reachable, .isDirect], interface: "v0", gateways: [])

            try ns.ip("link", "set", "v0p", "down")
            try ns.waitForLink("v0", carrier: false)

            let after = watch.wait(until: "the path moved to v1") { $0.interface?.name == "v1" }
            XCTAssertEqual(after?.status, .satisfied, "\(String(describing: after))")
            XCTAssertEqual(interfaceNames(after), ["v1"], "\(String(describing: after))")
            try assertTarget(watch.monitor, in: ns, kernel: .general, is: [.reachable, .isDirect], interface: "v1", gateways: [])
        }
    }

    // MARK: - Metrics

    /// A metric change alone (no link event) moves the path and reorders the list.
    func testMetricChange_movesThePath_andReordersAvailableInterfaces() throws {
        try withPathNamespace { ns in
            try addTwoDefaults(ns)
            let watch = WatchedMonitor(try ns.generalMonitor())
            defer { watch.stop() }
            try assertOnPrimary(watch, ns)

            // When v0's default route gets a worse metric than v1's
            try ns.ip("-4", "route", "replace", "default", "via", primary.gateway, "dev", primary.device, "metric", "300")
            try ns.ip("-4", "route", "del", "default", "via", primary.gateway, "dev", primary.device, "metric", "100")

            // Then the path leaves by v1, and v1 leads the list, v0 after it
            let path = watch.wait(until: "the path moved to v1, v0 second") {
                $0.interface?.name == "v1" && interfaceNames($0) == ["v1", "v0"]
            }
            XCTAssertEqual(path?.gateways.map(\.addressString), [secondary.gateway], "\(String(describing: path))")
            try assertTarget(watch.monitor, in: ns, kernel: .general, is: [.reachable], interface: "v1", gateways: [secondary.gateway])
            XCTAssertEqual(watch.monitor.currentPath.availableInterfaces.map(\.name), ["v1", "v0"])
        }
    }

    /// An available interface without a default route comes after those with one, whatever its index.
    func testAvailableInterfaces_withoutADefaultRoute_comeAfterThoseWithOne() throws {
        try withPathNamespace { ns in
            // Given v2, made first (so it has the lowest index), with an address but no default route
            try ns.addLink("v2", address: "10.29.0.2/24")
            try addTwoDefaults(ns)
            XCTAssertLessThan(try ns.index(of: "v2"), try ns.index(of: "v0"))
            let path = try ns.generalMonitor().currentPath
            XCTAssertEqual(interfaceNames(path), ["v0", "v1", "v2"], "\(path)")
        }
    }
}
