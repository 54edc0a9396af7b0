@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// The `InterfacePolicy` a monitor is given: configured expensive and constrained names, the
/// per-ifindex cache of the classification, and one engine per namespace and policy.
extension InterfaceClassificationTests {
    // MARK: - Configured names

    func testConfiguredExpensiveAndConstrainedNames() throws {
        try withPathNamespace { ns in
            let policy = InterfacePolicy(expensiveInterfaceNames: ["v0"], constrainedInterfaceNames: ["v1"])
            try ns.addLink("v0", address: plan.hostCIDR)
            try ns.addLink("v1", address: plan.second.hostCIDR)
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway, "dev", "v0", "metric", "100")
            try ns.ip("-4", "route", "add", "default", "via", plan.second.gateway, "dev", "v1", "metric", "200")
            let watch = WatchedMonitor(try ns.generalMonitor(policy: policy))
            defer { watch.stop() }

            // Over v0: expensive, not constrained, and still Ethernet and not WWAN
            let overV0 = try XCTUnwrap(watch.last)
            XCTAssertEqual(overV0.interface?.name, "v0", "\(overV0)")
            XCTAssertTrue(overV0.isExpensive, "\(overV0)")
            XCTAssertFalse(overV0.isConstrained, "\(overV0)")
            XCTAssertEqual(overV0.interface?.type, .wiredEthernet)
            XCTAssertEqual(overV0.flags, [.reachable], "configured names change no flags: \(overV0)")
            XCTAssertEqual(overV0.reachabilityStatus, .reachableViaWiFi)
            XCTAssertEqual(overV0.availableInterfaces.map { [$0.name: [$0.isExpensive, $0.isConstrained]] },
                           [["v0": [true, false]], ["v1": [false, true]]], "\(overV0.availableInterfaces)")

            // When v0's route goes, the path leaves by v1: constrained, not expensive
            try ns.ip("-4", "route", "del", "default", "via", plan.gateway, "dev", "v0")
            let overV1 = watch.wait(until: "the path leaves by v1") { $0.interface?.name == "v1" }
            XCTAssertEqual(overV1?.isExpensive, false, "\(String(describing: overV1))")
            XCTAssertEqual(overV1?.isConstrained, true, "\(String(describing: overV1))")
        }
    }

    /// Nothing is constrained unless configured: not cellular, not tethering.
    func testNothingIsConstrained_unlessConfigured() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.uevent("wwan0", devtype: "wwan")
            let (_, path) = try pathOverDefault("wwan0", policy: sysfs.policy(), in: ns)
            XCTAssertFalse(path.isConstrained, "\(path)")
            XCTAssertEqual(path.interface?.isConstrained, false)
        }
    }

    // MARK: - Cache and policy changes

    /// The classification is cached per ifindex and read again when the link's name changes:
    /// renaming a plain veth to the name of a Wi-Fi fixture makes it Wi-Fi.
    func testRenamingALink_reclassifiesIt() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.uevent("wlan0", devtype: "wlan")
            let (monitor, before) = try pathOverDefault("x0", policy: sysfs.policy(), in: ns)
            XCTAssertEqual(before.interface?.type, .wiredEthernet, "\(before)")
            let index = try ns.index(of: "x0")
            let watch = WatchedMonitor(monitor)
            defer { watch.stop() }

            // When x0 becomes wlan0 (a rename needs the link down, which also takes its IPv4 routes)
            try ns.ip("link", "set", "x0", "down")
            try ns.ip("link", "set", "x0", "name", "wlan0")
            try ns.ip("link", "set", "wlan0", "up")
            try ns.waitForLink("wlan0", carrier: true)
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway, "dev", "wlan0")

            // Then the same ifindex is Wi-Fi
            let after = watch.wait(until: "the path leaves by wlan0") { $0.interface?.name == "wlan0" }
            XCTAssertEqual(after?.interface?.index, index, "\(String(describing: after))")
            XCTAssertEqual(after?.interface?.type, .wifi, "\(String(describing: after))")
            XCTAssertEqual(after?.availableInterfaces.first?.type, .wifi, "\(String(describing: after))")
        }
    }

    /// The policy is the monitor's, fixed for its life: monitors of one namespace with different
    /// policies have engines of their own and each classifies by its own; equal policies share an
    /// engine, and with it the per-ifindex cache.
    func testMonitorsWithDifferentPolicies_classifyByTheirOwn() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.uevent("wwp1s0", devtype: "wwan")
            let engines = EngineRegistry.liveEngineCount
            let (plain, before) = try pathOverDefault("wwp1s0", policy: InterfacePolicy(), in: ns)
            XCTAssertEqual(before.interface?.type, .wiredEthernet, "no fixtures, a namespace's veth: \(before)")

            // A monitor whose policy points at the fixtures, made beside it, sees a modem
            let modem = try ns.generalMonitor(policy: sysfs.policy())
            try assertCellular(modem.currentPath, in: ns)
            XCTAssertEqual(EngineRegistry.liveEngineCount, engines + 2, "one engine per policy")
            // And the first monitor still does not
            XCTAssertEqual(plain.currentPath.interface?.type, .wiredEthernet)

            // When the fixture changes, a monitor with an equal policy shares the engine and its cache
            try sysfs.uevent("wwp1s0", devtype: "wlan")
            let same = try ns.generalMonitor(policy: sysfs.policy())
            XCTAssertEqual(EngineRegistry.liveEngineCount, engines + 2, "equal policies share an engine")
            XCTAssertEqual(same.currentPath.interface?.type, .cellular)
            // While one with another policy reads the device afresh
            let other = try ns.generalMonitor(policy: sysfs.policy(expensive: ["v9"]))
            XCTAssertEqual(other.currentPath.interface?.type, .wifi)
            withExtendedLifetime((plain, modem, same)) {}
        }
    }

    /// The sysfs root is read for a named namespace too, and the process's own `/sys` is not:
    /// the host's interfaces are never consulted for a namespace's links.
    func testWithoutSysfsRoot_aNamespacesVethIsWiredEthernet_andItsTunOther() throws {
        try withPathNamespace { ns in
            try ns.addLink("v0", address: plan.hostCIDR)
            try ns.addTun("t0", addresses: ["10.77.0.2/24"])
            let holder = try TunCarrierHolder(device: "t0", namespace: ns)
            defer { holder.stop() }
            try ns.waitForLink("t0", carrier: true)
            let path = try ns.generalMonitor().currentPath
            let types = Dictionary(uniqueKeysWithValues: path.availableInterfaces.map { ($0.name, $0.type) })
            XCTAssertEqual(types, ["v0": .wiredEthernet, "t0": .other], "\(path.availableInterfaces)")
            XCTAssertTrue(path.availableInterfaces.allSatisfy { !$0.isExpensive && !$0.isConstrained }, "\(path.availableInterfaces)")
        }
    }
}
