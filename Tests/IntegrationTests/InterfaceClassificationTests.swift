@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Issue 4 and semantics.md "Interface types": devices this kernel cannot create (Wi-Fi, WWAN,
/// Bluetooth, USB tethering) classified through sysfs fixtures (`InterfacePolicy.sysfsRoot`), over
/// veths in a namespace named like the fixture devices; names and ARPHRD types. Configured
/// expensive and constrained names, the per-ifindex cache and the per-monitor policy are in
/// `InterfaceClassificationTests+Policy.swift`.
final class InterfaceClassificationTests: XCTestCase {
    let plan = AddressPlan.ipv4

    /// A veth `device` with `plan.hostCIDR` and the default route via `plan.gateway`, and the
    /// general path over it, as a monitor with `policy` sees it.
    func pathOverDefault(_ device: String, policy: InterfacePolicy, in ns: Namespace,
                                 file: StaticString = #filePath, line: UInt = #line) throws -> (PathMonitor, NetworkPath) {
        try ns.addLink(device, peer: "p-" + device, address: plan.hostCIDR)
        try ns.ip("-4", "route", "add", "default", "via", plan.gateway, "dev", device)
        let monitor = try ns.generalMonitor(policy: policy)
        let path = monitor.currentPath
        XCTAssertEqual(path.interface?.name, device, "\(path)", file: file, line: line)
        XCTAssertEqual(path.status, .satisfied, "\(path)", file: file, line: line)
        return (monitor, path)
    }

    /// A path over a non-cellular interface of `type`: the flags are the kernel's, status via Wi-Fi (AFNetworking's name for "not WWAN").
    func assertNotCellular(_ path: NetworkPath, _ type: NetworkInterface.InterfaceType, expensive: Bool, in ns: Namespace,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(path.interface?.type, type, "\(path)", file: file, line: line)
        XCTAssertTrue(path.usesInterfaceType(type), "\(path)", file: file, line: line)
        XCTAssertEqual(path.interface?.isExpensive, expensive, "\(path)", file: file, line: line)
        XCTAssertEqual(path.isExpensive, expensive, "\(path)", file: file, line: line)
        XCTAssertFalse(path.isConstrained, "\(path)", file: file, line: line)
        XCTAssertEqual(path.flags, try ns.kernelVerdict(.general).flags, "\(path)", file: file, line: line)
        XCTAssertFalse(path.flags.contains(.isWWAN), "\(path)", file: file, line: line)
        XCTAssertEqual(path.reachabilityStatus, .reachableViaWiFi, "\(path)", file: file, line: line)
    }

    /// A path over a cellular interface: expensive, and `isWWAN` and `transientConnection` on top of
    /// what the kernel's route means (as Apple's configd does); status via WWAN.
    func assertCellular(_ path: NetworkPath, in ns: Namespace, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(path.interface?.type, .cellular, "\(path)", file: file, line: line)
        XCTAssertTrue(path.usesInterfaceType(.cellular), "\(path)", file: file, line: line)
        XCTAssertTrue(path.isExpensive, "\(path)", file: file, line: line)
        XCTAssertEqual(path.interface?.isExpensive, true, "\(path)", file: file, line: line)
        let kernel = try ns.kernelVerdict(.general)
        XCTAssertEqual(path.flags, kernel.flags.union([.isWWAN, .transientConnection]), "\(path); kernel: \(kernel.evidence)",
                       file: file, line: line)
        XCTAssertEqual(path.flags, [.reachable, .isWWAN, .transientConnection], "\(path)", file: file, line: line)
        XCTAssertEqual(path.reachabilityStatus, .reachableViaWWAN, "\(path)", file: file, line: line)
        XCTAssertEqual(path.status, .satisfied, "\(path)", file: file, line: line)
    }

    // MARK: - Wi-Fi

    func testWiFi_byDevtypeWlan() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.uevent("wlan0", devtype: "wlan")
            let (_, path) = try pathOverDefault("wlan0", policy: sysfs.policy(), in: ns)
            try assertNotCellular(path, .wifi, expensive: false, in: ns)
        }
    }

    func testWiFi_byPhy80211() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.phy80211("wlp2s0")
            let (_, path) = try pathOverDefault("wlp2s0", policy: sysfs.policy(), in: ns)
            try assertNotCellular(path, .wifi, expensive: false, in: ns)
        }
    }

    func testWiFi_byWirelessDirectory() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.wirelessDirectory("wlan1")
            let (_, path) = try pathOverDefault("wlan1", policy: sysfs.policy(), in: ns)
            try assertNotCellular(path, .wifi, expensive: false, in: ns)
        }
    }

    /// Without a fixture a veth called wlan0 is what it is: Ethernet. The name alone proves nothing.
    func testWiFiName_withoutFixture_isWiredEthernet() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            let (_, path) = try pathOverDefault("wlan0", policy: sysfs.policy(), in: ns)
            try assertNotCellular(path, .wiredEthernet, expensive: false, in: ns)
        }
    }

    /// The example: Ethernet is the default and Wi-Fi is connected too; a monitor that
    /// requires Wi-Fi is satisfied over Wi-Fi, one that prohibits it over Ethernet.
    func testRequiredWiFi_isSatisfiedOverWiFi_whileEthernetIsTheDefault() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.uevent("wlan0", devtype: "wlan")
            try ns.addLink("eth0", peer: "p-eth0", address: plan.hostCIDR)
            try ns.addLink("wlan0", peer: "p-wlan0", address: plan.second.hostCIDR)
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway, "dev", "eth0", "metric", "100")
            try ns.ip("-4", "route", "add", "default", "via", plan.second.gateway, "dev", "wlan0", "metric", "600")

            let general = try ns.generalMonitor(policy: sysfs.policy()).currentPath
            XCTAssertEqual(general.interface?.name, "eth0", "\(general)")
            XCTAssertEqual(general.interface?.type, .wiredEthernet, "\(general)")
            XCTAssertEqual(general.availableInterfaces.map(\.name), ["eth0", "wlan0"], "\(general)")
            XCTAssertEqual(general.availableInterfaces.map(\.type), [.wiredEthernet, .wifi], "\(general)")

            let wifi = try ns.filteredMonitor(required: .wifi, policy: sysfs.policy()).currentPath
            XCTAssertEqual(wifi.status, .satisfied, "\(wifi)")
            XCTAssertEqual(wifi.interface?.name, "wlan0", "\(wifi)")
            XCTAssertTrue(wifi.usesInterfaceType(.wifi), "\(wifi)")
            XCTAssertEqual(wifi.gateways.map(\.addressString), [plan.second.gateway], "\(wifi)")

            let noWiFi = try ns.filteredMonitor(prohibited: [.wifi], policy: sysfs.policy()).currentPath
            XCTAssertEqual(noWiFi.interface?.name, "eth0", "\(noWiFi)")

            let cellular = try ns.filteredMonitor(required: .cellular, policy: sysfs.policy()).currentPath
            XCTAssertEqual(cellular.unsatisfiedReason, .requiredInterfaceUnavailable, "\(cellular)")
        }
    }

    // MARK: - Cellular

    func testWWAN_byDevtypeWwan() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            // A name no name rule knows: only the DEVTYPE can make it cellular
            try sysfs.uevent("wwp0s20u4", devtype: "wwan")
            let (_, path) = try pathOverDefault("wwp0s20u4", policy: sysfs.policy(), in: ns)
            try assertCellular(path, in: ns)
        }
    }

    func testWWAN_byDriverSymlink_qmiWwan() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.usbDevice("wwp0s20u4i4", driver: "qmi_wwan", product: "Sierra Wireless EM7455")
            let (_, path) = try pathOverDefault("wwp0s20u4i4", policy: sysfs.policy(), in: ns)
            try assertCellular(path, in: ns)
        }
    }

    func testWWAN_byDriverSymlink_cdcMbim() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.usbDevice("mbim0", driver: "cdc_mbim")
            let (_, path) = try pathOverDefault("mbim0", policy: sysfs.policy(), in: ns)
            try assertCellular(path, in: ns)
        }
    }

    /// `wwan0` (the kernel's WWAN framework's name) is cellular by its name, with or without sysfs.
    func testWWAN_byName_wwan0_withoutSysfsRoot() throws {
        try withPathNamespace { ns in
            let (_, path) = try pathOverDefault("wwan0", policy: InterfacePolicy(), in: ns)
            try assertCellular(path, in: ns)
        }
    }

    func testWWAN_byName_rmnetAndCcmni() throws {
        for name in ["rmnet_data0", "ccmni0"] {
            try withPathNamespace { ns in
                let (_, path) = try pathOverDefault(name, policy: InterfacePolicy(), in: ns)
                try assertCellular(path, in: ns)
            }
        }
    }

    /// A scheduled monitor's callbacks carry the cellular flags too, and the status block's
    /// `reachableViaWWAN` (AFNetworking), beginning with the first callback.
    func testWWAN_scheduledMonitor_deliversWWANFlags() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.uevent("wwan0", devtype: "wwan")
            let (monitor, _) = try pathOverDefault("wwan0", policy: sysfs.policy(), in: ns)
            let flags = Recorder<ReachabilityFlags>()
            monitor.setCallback { flags.append($0) }
            let watch = WatchedMonitor(monitor)
            defer { watch.stop() }
            flags.wait(forCount: 1)
            XCTAssertEqual(flags.all.first, [.reachable, .isWWAN, .transientConnection], names(flags.all))
            XCTAssertEqual(watch.paths.all.first?.reachabilityStatus, .reachableViaWWAN, "\(watch.paths.all)")

            // When the modem loses carrier: connection required, still WWAN
            try ns.ip("link", "set", "p-wwan0", "down")
            flags.wait(forLast: [.reachable, .connectionRequired, .isWWAN, .transientConnection])
            XCTAssertEqual(watch.wait(until: "the path has no carrier") { $0.unsatisfiedReason == .noCarrier }?.reachabilityStatus,
                           .notReachable)
        }
    }

    // MARK: - Bluetooth and tethering: expensive, not cellular

    func testBluetoothPAN_isExpensiveEthernet() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.uevent("bnep0", devtype: "bluetooth")
            let (_, path) = try pathOverDefault("bnep0", policy: sysfs.policy(), in: ns)
            try assertNotCellular(path, .wiredEthernet, expensive: true, in: ns)
        }
    }

    func testRNDISTethering_isExpensiveEthernet() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.usbDevice("usb0", driver: "rndis_host", product: "SAMSUNG_Android")
            let (_, path) = try pathOverDefault("usb0", policy: sysfs.policy(), in: ns)
            try assertNotCellular(path, .wiredEthernet, expensive: true, in: ns)
        }
    }

    func testIPhoneTethering_ipheth_isExpensiveEthernet() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.usbDevice("eth1", driver: "ipheth", product: "iPhone")
            let (_, path) = try pathOverDefault("eth1", policy: sysfs.policy(), in: ns)
            try assertNotCellular(path, .wiredEthernet, expensive: true, in: ns)
        }
    }

    func testCDCEther_behindAPhone_isExpensive_behindADock_isNot() throws {
        for (product, expensive) in [("Pixel 7", true), ("USB 10/100/1000 LAN", false)] {
            try withPathNamespace { ns in
                let sysfs = try SysfsFixture()
                defer { sysfs.remove() }
                try sysfs.usbDevice("usb1", driver: "cdc_ether", product: product)
                let (_, path) = try pathOverDefault("usb1", policy: sysfs.policy(), in: ns)
                try assertNotCellular(path, .wiredEthernet, expensive: expensive, in: ns)
            }
        }
    }
}
