@testable import NetworkReachabilityCore
import ReachabilityCompat
import ReachabilityModel
import XCTest

/// Issue 31: Apple's `usesInterfaceType(.wifi)` is true for the physical link under a VPN, and
/// `isUltraConstrained` follows the interface policy; here on a real tun that takes the default
/// route with the two /1 halves over a Wi-Fi link (a veth classified through a sysfs fixture).
final class CompatVPNTests: XCTestCase {
    func testVPNOverWiFi_usesWiFiBeneathTheTunnel_andTheTunnelIsUltraConstrainedByPolicy() throws {
        try withPathNamespace { ns in
            // Given: wlan0 (Wi-Fi by its fixture, -60 dBm) with the default route, and a tun holding carrier
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.uevent("wlan0", devtype: "wlan")
            try sysfs.wirelessLevel("wlan0", "-60")
            try ns.addLink("wlan0", peer: "p-wlan0", address: "10.42.0.1/24")
            try ns.ip("route", "add", "default", "via", "10.42.0.2")
            try ns.addTun("t0", addresses: ["10.43.0.1/24"])
            let holder = try TunCarrierHolder(device: "t0", namespace: ns)
            defer { holder.stop() }
            try ns.waitForLink("t0", carrier: true)
            var policy = sysfs.policy()
            policy.ultraConstrainedInterfaceNames = ["t0"]
            let watched = WatchedMonitor(try ns.generalMonitor(policy: policy))
            defer { watched.stop() }

            // Before the VPN: Wi-Fi, good, not constrained
            let direct = NWPath(try XCTUnwrap(watched.wait(until: "over wlan0") { $0.interface?.name == "wlan0" }))
            XCTAssertTrue(direct.usesInterfaceType(.wifi))
            XCTAssertFalse(direct.usesInterfaceType(.other))
            XCTAssertEqual(direct.linkQuality, .good)
            XCTAssertFalse(direct.isUltraConstrained)

            // When: the VPN takes the default route, as OpenVPN's def1 does
            try ns.ip("route", "add", "0.0.0.0/1", "dev", "t0")
            try ns.ip("route", "add", "128.0.0.0/1", "dev", "t0")

            // Then: the tunnel (other) and the Wi-Fi beneath it; the tunnel's quality is unknown,
            // and the policy makes it ultra-constrained, so constrained too
            let vpn = NWPath(try XCTUnwrap(watched.wait(until: "over t0") { $0.interface?.name == "t0" }))
            XCTAssertEqual(vpn.status, .satisfied)
            XCTAssertTrue(vpn.usesInterfaceType(.other), "the tunnel")
            XCTAssertTrue(vpn.usesInterfaceType(.wifi), "the physical link beneath it: \(vpn.networkPath)")
            XCTAssertFalse(vpn.usesInterfaceType(.wiredEthernet))
            XCTAssertFalse(vpn.networkPath.usesInterfaceType(.wifi), "ours: the route's interface only")
            XCTAssertEqual(vpn.linkQuality, .unknown)
            XCTAssertTrue(vpn.isUltraConstrained)
            XCTAssertTrue(vpn.isConstrained)
        }
    }
}
