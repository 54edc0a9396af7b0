@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Issue 4: `PathMonitor(requiredInterfaceType:prohibitedInterfaceTypes:)` over a veth (wired
/// Ethernet) and a tun (other). The path is evaluated as if only the allowed interfaces existed:
/// one default-route lookup restricted to each (`ip route get ... oif IF`).
final class PathInterfaceFilterTests: XCTestCase {
    private let plan = AddressPlan.ipv4
    private let tunCIDR = "10.77.0.2/24"

    /// v0 (veth, `plan.hostCIDR`) holds the default route with metric 100; t0 (tun, `tunCIDR`) a
    /// direct default with metric 200. The tun has no carrier until a `TunCarrierHolder` holds it.
    private func addVethAndTun(_ ns: Namespace, tunDefault: Bool = true) throws {
        try ns.addLink("v0", address: plan.hostCIDR)
        try ns.ip("-4", "route", "add", "default", "via", plan.gateway, "dev", "v0", "metric", "100")
        try ns.addTun("t0", addresses: [tunCIDR])
        if tunDefault {
            try ns.ip("-4", "route", "add", "default", "dev", "t0", "metric", "200")
        }
    }

    /// The kernel's own answer for the lookup restricted to `device`.
    private func restrictedLookup(_ ns: Namespace, _ device: String) throws -> KernelVerdict {
        try ns.kernelVerdict(.destination(plan.globalProbe, outputDevice: device))
    }

    func testRequiredOther_isSatisfiedOverTheTun_whileTheVethIsTheDefault() throws {
        try withPathNamespace { ns in
            try addVethAndTun(ns)
            let holder = try TunCarrierHolder(device: "t0", namespace: ns)
            defer { holder.stop() }
            try ns.waitForLink("t0", carrier: true)

            // The unrestricted path takes the veth, the default
            try assertTarget(try ns.generalMonitor(), in: ns, kernel: .general, is: [.reachable], interface: "v0",
                             interfaceType: .wiredEthernet, gateways: [plan.gateway])

            // Required .other: the tun, reachable, point to point, direct (its default has no gateway)
            let kernel = try restrictedLookup(ns, "t0")
            let expected: ReachabilityFlags = [.reachable, .transientConnection, .isDirect]
            XCTAssertEqual(kernel.flags, expected, "the kernel, restricted to t0: \(kernel.evidence)")
            let monitor = try ns.filteredMonitor(required: .other)
            let path = monitor.currentPath
            XCTAssertEqual(path.status, .satisfied, "\(path)")
            XCTAssertNil(path.unsatisfiedReason, "\(path)")
            XCTAssertEqual(path.flags, expected, "\(path)")
            XCTAssertEqual(path.interface?.name, "t0", "\(path)")
            XCTAssertEqual(path.interface?.type, .other, "\(path)")
            XCTAssertTrue(path.usesInterfaceType(.other), "\(path)")
            XCTAssertFalse(path.usesInterfaceType(.wiredEthernet), "\(path)")
            XCTAssertEqual(path.gateways.map(\.addressString), [], "\(path)")
            XCTAssertEqual(try monitor.flags(), expected)
            XCTAssertTrue(path.supportsIPv4, "\(path)")
        }
    }

    func testProhibitedWiredEthernet_isSatisfiedOverTheTun() throws {
        try withPathNamespace { ns in
            try addVethAndTun(ns)
            let holder = try TunCarrierHolder(device: "t0", namespace: ns)
            defer { holder.stop() }
            try ns.waitForLink("t0", carrier: true)

            let path = try ns.filteredMonitor(prohibited: [.wiredEthernet]).currentPath
            XCTAssertEqual(path.status, .satisfied, "\(path)")
            XCTAssertEqual(path.interface?.name, "t0", "\(path)")
            XCTAssertEqual(path.flags, [.reachable, .transientConnection, .isDirect], "\(path)")
        }
    }

    func testRequiredWiredEthernet_isSatisfiedOverTheVeth_evenWhenTheTunHasTheBetterMetric() throws {
        try withPathNamespace { ns in
            try ns.addLink("v0", address: plan.hostCIDR)
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway, "dev", "v0", "metric", "300")
            try ns.addTun("t0", addresses: [tunCIDR])
            try ns.ip("-4", "route", "add", "default", "dev", "t0", "metric", "50")
            let holder = try TunCarrierHolder(device: "t0", namespace: ns)
            defer { holder.stop() }
            try ns.waitForLink("t0", carrier: true)

            XCTAssertEqual(try ns.generalMonitor().currentPath.interface?.name, "t0", "the unrestricted path takes the tun")
            let path = try ns.filteredMonitor(required: .wiredEthernet).currentPath
            XCTAssertEqual(path.status, .satisfied, "\(path)")
            XCTAssertEqual(path.interface?.name, "v0", "\(path)")
            XCTAssertEqual(path.gateways.map(\.addressString), [plan.gateway], "\(path)")
            XCTAssertEqual(path.flags, try restrictedLookup(ns, "v0").flags, "\(path)")
        }
    }

    func testRequiredOther_tunWithoutCarrier_requiresAConnection_thenFollowsTheCarrier() throws {
        try withPathNamespace { ns in
            try addVethAndTun(ns)
            try ns.waitForLink("t0", carrier: false)
            let watch = WatchedMonitor(try ns.filteredMonitor(required: .other))
            defer { watch.stop() }

            // Without a process holding it the tun has no carrier: a route, but a connection is required
            let waiting = watch.wait(until: "the path has no carrier over t0") { $0.unsatisfiedReason == .noCarrier }
            XCTAssertEqual(waiting?.interface?.name, "t0", "\(String(describing: waiting))")
            XCTAssertEqual(waiting?.unsatisfiedReason, .noCarrier, "\(String(describing: waiting))")
            XCTAssertEqual(waiting?.flags, [.reachable, .connectionRequired, .transientConnection, .isDirect])
            XCTAssertEqual(try restrictedLookup(ns, "t0").flags, [.reachable, .connectionRequired, .transientConnection, .isDirect])

            // When a process opens the tun, the path is satisfied over it
            let holder = try TunCarrierHolder(device: "t0", namespace: ns)
            let satisfied = watch.wait(until: "the path is satisfied over t0") { $0.status == .satisfied }
            XCTAssertEqual(satisfied?.interface?.name, "t0", "\(String(describing: satisfied))")

            // When it closes it, a connection is required again
            holder.stop()
            let again = watch.wait(until: "the path has no carrier again") { $0.unsatisfiedReason == .noCarrier }
            XCTAssertEqual(again?.interface?.name, "t0", "\(String(describing: again))")
        }
    }

    /// IPv4 answers a lookup restricted to an interface without any route by assuming the
    /// destination is on-link there; that is no default route, so a tun without one does not satisfy.
    func testRequiredOther_tunWithoutADefaultRoute_isRequiredInterfaceUnavailable() throws {
        try withPathNamespace { ns in
            try addVethAndTun(ns, tunDefault: false)
            let holder = try TunCarrierHolder(device: "t0", namespace: ns)
            defer { holder.stop() }
            try ns.waitForLink("t0", carrier: true)

            let onLink = try ns.ipAnswer(["route", "get", plan.globalProbe, "oif", "t0"])
            XCTAssertEqual(onLink.status, 0, "the kernel assumes on-link: \(onLink.standardError)")
            let path = try ns.filteredMonitor(required: .other).currentPath
            XCTAssertEqual(path.status, .unsatisfied, "\(path)")
            XCTAssertEqual(path.unsatisfiedReason, .requiredInterfaceUnavailable, "\(path)")
            XCTAssertEqual(path.flags, [], "\(path)")
        }
    }

    func testRequiredWiFi_withNoWiFiInterface_isRequiredInterfaceUnavailable() throws {
        try withPathNamespace { ns in
            try addVethAndTun(ns)
            let holder = try TunCarrierHolder(device: "t0", namespace: ns)
            defer { holder.stop() }
            try ns.waitForLink("t0", carrier: true)

            let monitor = try ns.filteredMonitor(required: .wifi)
            let path = monitor.currentPath
            XCTAssertEqual(path.status, .unsatisfied, "\(path)")
            XCTAssertEqual(path.unsatisfiedReason, .requiredInterfaceUnavailable, "\(path)")
            XCTAssertEqual(path.flags, [], "\(path)")
            XCTAssertNil(path.interface, "\(path)")
            XCTAssertEqual(path.reachabilityStatus, .notReachable)
            XCTAssertFalse(path.supportsIPv4, "no Wi-Fi, so no IPv4 for this monitor: \(path)")
            XCTAssertEqual(try monitor.flags(), [])

            // Scheduled, the first callback says the same
            let watch = WatchedMonitor(monitor)
            defer { watch.stop() }
            XCTAssertEqual(watch.paths.all.first?.unsatisfiedReason, .requiredInterfaceUnavailable, "\(watch.paths.all)")
        }
    }

    func testProhibitingEveryType_isRequiredInterfaceUnavailable() throws {
        try withPathNamespace { ns in
            try addVethAndTun(ns)
            let path = try ns.filteredMonitor(prohibited: [.wiredEthernet, .other]).currentPath
            XCTAssertEqual(path.status, .unsatisfied, "\(path)")
            XCTAssertEqual(path.unsatisfiedReason, .requiredInterfaceUnavailable, "\(path)")
        }
    }

    /// A required-type monitor follows its interface, not the default: when the veth loses carrier
    /// nothing changes for a tun-required monitor, and when the tun is deleted it says so.
    func testRequiredOther_ignoresTheVeth_andReportsTheTunsRemoval() throws {
        try withPathNamespace { ns in
            try addVethAndTun(ns)
            let holder = try TunCarrierHolder(device: "t0", namespace: ns)
            defer { holder.stop() }
            try ns.waitForLink("t0", carrier: true)
            let watch = WatchedMonitor(try ns.filteredMonitor(required: .other))
            defer { watch.stop() }
            watch.wait(until: "satisfied over t0") { $0.status == .satisfied && $0.interface?.name == "t0" }

            // When the veth loses carrier, the tun-only path stays satisfied over t0
            try ns.ip("link", "set", "v0p", "down")
            try ns.waitForLink("v0", carrier: false)
            let unrestricted = try ns.generalMonitor()
            XCTAssertEqual(unrestricted.currentPath.interface?.name, "v0", "the unrestricted path still takes v0")
            XCTAssertEqual(watch.monitor.currentPath.status, .satisfied, "\(watch.monitor.currentPath)")
            XCTAssertEqual(watch.monitor.currentPath.interface?.name, "t0")

            // When the tun goes away, no allowed interface is left
            holder.stop()
            try ns.ip("tuntap", "del", "mode", "tun", "name", "t0")
            let gone = watch.wait(until: "the required interface is unavailable") {
                $0.unsatisfiedReason == .requiredInterfaceUnavailable
            }
            XCTAssertEqual(gone?.status, .unsatisfied, "\(String(describing: gone))")
            XCTAssertNil(gone?.interface, "\(String(describing: gone))")
        }
    }

    /// The non-throwing initialiser over a namespace that does not exist: the reason is the
    /// namespace, not the interface type.
    func testFilteredMonitor_ofAMissingNamespace_isNamespaceUnavailable() throws {
        if let problem = namespaceSupportProblem { throw XCTSkip(problem) }
        let monitor = PathMonitor(requiredInterfaceType: .wifi, namespace: .named("nrx-path-\(getpid())-missing"))
        XCTAssertNotNil(monitor.setupError)
        XCTAssertEqual(monitor.currentPath.status, .unsatisfied)
        XCTAssertEqual(monitor.currentPath.unsatisfiedReason, .namespaceUnavailable, "\(monitor.currentPath)")
        XCTAssertThrowsError(try monitor.flags())
        let watch = WatchedMonitor(monitor)
        defer { watch.stop() }
        XCTAssertEqual(watch.paths.all.first?.unsatisfiedReason, .namespaceUnavailable, "\(watch.paths.all)")
    }

    /// "As if only the allowed interfaces existed" (issue 4): a filtered monitor's
    /// `availableInterfaces` hold only the allowed types (as NWPath's do: the interfaces available to
    /// this path), while the unrestricted monitor lists both.
    func testAvailableInterfaces_ofAFilteredMonitor_holdOnlyAllowedTypes() throws {
        try withPathNamespace { ns in
            try addVethAndTun(ns)
            let holder = try TunCarrierHolder(device: "t0", namespace: ns)
            defer { holder.stop() }
            try ns.waitForLink("t0", carrier: true)

            XCTAssertEqual(Set(interfaceNames(try ns.generalMonitor().currentPath)), ["v0", "t0"])
            let other = try ns.filteredMonitor(required: .other).currentPath
            XCTAssertEqual(interfaceNames(other), ["t0"], "required .other: \(other)")
            let noWired = try ns.filteredMonitor(prohibited: [.wiredEthernet]).currentPath
            XCTAssertEqual(interfaceNames(noWired), ["t0"], "prohibited .wiredEthernet: \(noWired)")
            let wifi = try ns.filteredMonitor(required: .wifi).currentPath
            XCTAssertEqual(interfaceNames(wifi), [], "required .wifi, with no Wi-Fi: \(wifi)")
        }
    }
}
