@testable import NetworkReachabilityCore
import ReachabilityModel
import XCTest

/// Issue 31, docs/semantics.md "Link quality": a path's `linkQuality` from its interface's link
/// layer. Wired speed on a real veth (10 Gb/s full duplex, read with `ETHTOOL_GSET` inside the
/// namespace); other speeds and Wi-Fi signals, which this kernel cannot make, from sysfs fixtures
/// (`InterfacePolicy.sysfsRoot`) over veths named like the devices. A change of class is a path
/// change; a signal within the hysteresis of a threshold changes nothing.
final class LinkQualityTests: XCTestCase {
    let plan = AddressPlan.ipv4

    func testVeth_isGood_andUnknownWithoutCarrier() throws {
        try withPathNamespace { ns in
            try ns.addLink("v0", peer: "v0p", address: plan.hostCIDR)
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway)
            let watched = WatchedMonitor(try ns.generalMonitor())
            defer { watched.stop() }
            watched.wait(until: "good over the veth") { $0.status == .satisfied && $0.linkQuality == .good }
            XCTAssertEqual(watched.last?.interface?.linkQuality, .good)

            try ns.ip("link", "set", "v0p", "down")
            watched.wait(until: "unknown without carrier") { $0.unsatisfiedReason == .noCarrier && $0.linkQuality == .unknown }
            try ns.ip("link", "set", "v0p", "up")
            watched.wait(until: "good again") { $0.status == .satisfied && $0.linkQuality == .good }
        }
    }

    func testWired_fromSpeedAndDuplex_measuredAgainWhenTheLinkRenegotiates() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.uevent("eth0", devtype: nil)
            try sysfs.linkSpeed("eth0", speed: "100", duplex: "half")
            try ns.addLink("eth0", peer: "p-eth0", address: plan.hostCIDR)
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway)
            let watched = WatchedMonitor(try ns.generalMonitor(policy: sysfs.policy()))
            defer { watched.stop() }
            watched.wait(until: "moderate at 100 Mb/s half duplex") { $0.status == .satisfied && $0.linkQuality == .moderate }

            // When the link renegotiates (carrier goes and comes back) at 10 Mb/s half duplex
            try sysfs.linkSpeed("eth0", speed: "10", duplex: "half")
            try ns.ip("link", "set", "p-eth0", "down")
            watched.wait(until: "unknown without carrier") { $0.linkQuality == .unknown }
            try ns.ip("link", "set", "p-eth0", "up")
            watched.wait(until: "minimal at 10 Mb/s half duplex") { $0.status == .satisfied && $0.linkQuality == .minimal }
        }
    }

    func testWiFi_followsTheSignal_withHysteresis() throws {
        try withPathNamespace { ns in
            let sysfs = try SysfsFixture()
            defer { sysfs.remove() }
            try sysfs.uevent("wlan0", devtype: "wlan")
            try sysfs.wirelessLevel("wlan0", "201")  // -55 dBm, as sysfs prints the 8-bit field
            try ns.addLink("wlan0", peer: "p-wlan0", address: plan.hostCIDR)
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway)
            try ns.addLink("x0", peer: "x0p")
            let watched = WatchedMonitor(try ns.generalMonitor(policy: sysfs.policy()))
            defer { watched.stop() }
            watched.wait(until: "good at -55 dBm") { $0.status == .satisfied && $0.linkQuality == .good }

            // A Wi-Fi signal moves without a kernel message: it is read again on each change of
            // links or addresses, here an address of x0 that comes and goes (each one a path change).
            var extraHasAddress = false
            func signal(_ level: Int, gives expected: LinkQuality, line: UInt = #line) throws {
                try sysfs.wirelessLevel("wlan0", String(level))
                extraHasAddress.toggle()
                try ns.ip("addr", extraHasAddress ? "add" : "del", "10.250.0.1/32", "dev", "x0")
                let wanted = extraHasAddress
                let path = watched.wait(until: "x0's address \(wanted ? "added" : "removed")", line: line) {
                    $0.availableInterfaces.contains { $0.name == "x0" } == wanted
                }
                XCTAssertEqual(path?.linkQuality, expected, "\(level) dBm: \(String(describing: path))", line: line)
                XCTAssertEqual(path?.interface?.name, "wlan0", line: line)
            }
            try signal(-70, gives: .good)      // below -67, but not by 4 dB
            try signal(-73, gives: .moderate)
            try signal(-82, gives: .moderate)  // below -80, but not by 4 dB
            try signal(-86, gives: .minimal)
            try signal(-78, gives: .minimal)   // above -80, but not by 4 dB
            try signal(-74, gives: .moderate)

            let classes = watched.paths.all.map(\.linkQuality).reduce(into: [LinkQuality]()) { classes, quality in
                if classes.last != quality { classes.append(quality) }
            }
            XCTAssertEqual(classes, [.good, .moderate, .minimal, .moderate], "one change of class per crossing, no flapping")
        }
    }
}
