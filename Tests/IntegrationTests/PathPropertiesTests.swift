@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Issue 4: `supportsIPv4`/`supportsIPv6` on single-stack namespaces, and `supportsDNS` from the
/// namespace's resolv.conf (`/etc/netns/NAME/resolv.conf`, else `/etc/resolv.conf`), followed live
/// by a scheduled monitor. `withNamespace` removes `/etc/netns/NAME` on every exit path.
final class PathPropertiesTests: XCTestCase {
    // MARK: - supportsIPv4 / supportsIPv6

    func testIPv4OnlyNamespace_supportsIPv4_notIPv6() throws {
        try withPathNamespace { ns in
            // Given IPv6 switched off entirely, and an IPv4 LAN with a default route
            try ns.setSysctl("net.ipv6.conf.all.disable_ipv6", "1")
            try ns.setSysctl("net.ipv6.conf.default.disable_ipv6", "1")
            let plan = AddressPlan.ipv4
            try ns.addLink("v0", address: plan.hostCIDR)
            try ns.ip("-4", "route", "add", "default", "via", plan.gateway, "dev", "v0")
            XCTAssertEqual(try ns.ip("-6", "addr", "show").trimmingCharacters(in: .whitespacesAndNewlines), "", "no IPv6 at all")

            let path = try ns.generalMonitor().currentPath
            XCTAssertEqual(path.status, .satisfied, "\(path)")
            XCTAssertTrue(path.supportsIPv4, "\(path)")
            XCTAssertFalse(path.supportsIPv6, "\(path)")
            XCTAssertEqual(try ns.kernelVerdict(.zero(.ipv6)).flags, [], "the kernel has no IPv6 route either")
        }
    }

    func testIPv6OnlyNamespace_supportsIPv6_notIPv4() throws {
        try withPathNamespace { ns in
            // Given an IPv6 LAN with a default route, and no IPv4 address or route at all
            let plan = AddressPlan.ipv6
            try ns.addLink("v0", address: plan.hostCIDR)
            try ns.ip("-6", "route", "add", "default", "via", plan.gateway, "dev", "v0")
            XCTAssertFalse(try ns.ip("-4", "addr", "show").contains("10."), "no IPv4 address but 127.0.0.1")

            let monitor = try ns.generalMonitor()
            let path = monitor.currentPath
            XCTAssertEqual(path.status, .satisfied, "\(path)")
            XCTAssertTrue(path.supportsIPv6, "\(path)")
            XCTAssertFalse(path.supportsIPv4, "\(path)")
            XCTAssertEqual(path.interface?.name, "v0", "\(path)")
            XCTAssertEqual(path.gateways.map(\.addressString), [plan.gateway], "\(path)")
            try assertTarget(monitor, in: ns, kernel: .general, is: [.reachable], interface: "v0", gateways: [plan.gateway])
        }
    }

    func testDualStack_supportsBoth_andFollowsEachFamilysDefault() throws {
        try withPathNamespace { ns in
            let (v4, v6) = (AddressPlan.ipv4, AddressPlan.ipv6)
            try ns.addVeth("v0", addresses: [v4.hostCIDR, v6.hostCIDR], linkLocal: false)
            try ns.waitForLink("v0", carrier: true)
            try ns.ip("-4", "route", "add", "default", "via", v4.gateway, "dev", "v0")
            try ns.ip("-6", "route", "add", "default", "via", v6.gateway, "dev", "v0")
            let watch = WatchedMonitor(try ns.generalMonitor())
            defer { watch.stop() }
            let both = watch.wait(until: "both families are supported") { $0.supportsIPv4 && $0.supportsIPv6 }
            XCTAssertEqual(both?.status, .satisfied)

            // When the IPv6 default goes, only IPv4 is supported, and the path stays satisfied
            try ns.ip("-6", "route", "del", "default", "via", v6.gateway, "dev", "v0")
            let v4Only = watch.wait(until: "IPv6 is no longer supported") { $0.supportsIPv4 && !$0.supportsIPv6 }
            XCTAssertEqual(v4Only?.status, .satisfied, "\(String(describing: v4Only))")

            // When the IPv4 default goes too, neither is, and there is no route
            try ns.ip("-4", "route", "del", "default", "via", v4.gateway, "dev", "v0")
            let none = watch.wait(until: "no family is supported") { !$0.supportsIPv4 && !$0.supportsIPv6 }
            XCTAssertEqual(none?.status, .unsatisfied, "\(String(describing: none))")
            XCTAssertEqual(none?.unsatisfiedReason, .noRoute, "\(String(describing: none))")
        }
    }

    // MARK: - supportsDNS

    /// What `supportsDNS` must say with no `/etc/netns/NAME/resolv.conf`: whether the host's names a server.
    private var hostResolvConfHasNameServer: Bool {
        resolvConfHasNameServer((try? String(contentsOfFile: "/etc/resolv.conf", encoding: .utf8)) ?? "")
    }

    private func addDefault(_ ns: Namespace) throws {
        let plan = AddressPlan.ipv4
        try ns.addLink("v0", address: plan.hostCIDR)
        try ns.ip("-4", "route", "add", "default", "via", plan.gateway, "dev", "v0")
    }

    func testSupportsDNS_withAndWithoutANameServer_inTheNamespacesResolvConf() throws {
        try withPathNamespace { ns in
            try addDefault(ns)
            let cases: [(String, Bool)] = [
                ("nameserver 192.0.2.53\n", true),
                ("search example.org\noptions ndots:2\n", false),
                ("# nameserver 192.0.2.53\n; nameserver 192.0.2.54\n", false),
                ("nameserver\n", false),
                ("search example.org\n  nameserver 2001:db8::53\n", true),
                ("", false),
            ]
            for (text, expected) in cases {
                try ns.setResolvConf(text)
                let path = try ns.generalMonitor().currentPath
                XCTAssertEqual(path.supportsDNS, expected, "resolv.conf \(text.debugDescription): \(path)")
                XCTAssertEqual(path.status, .satisfied, "DNS does not decide the general path's status: \(path)")
            }
        }
    }

    func testSupportsDNS_withoutTheNamespacesFile_isTheHostsResolvConf() throws {
        try withPathNamespace { ns in
            try addDefault(ns)
            XCTAssertFalse(FileManager.default.fileExists(atPath: "/etc/netns/\(ns.name)/resolv.conf"))
            let path = try ns.generalMonitor().currentPath
            XCTAssertEqual(path.supportsDNS, hostResolvConfHasNameServer, "\(path)")
        }
    }

    /// The file exists before the monitor starts; rewriting it fires `pathUpdateHandler` each time.
    func testSupportsDNS_rewritingResolvConf_updatesAScheduledMonitor() throws {
        try withPathNamespace { ns in
            try addDefault(ns)
            try ns.setResolvConf("search example.org\n")
            let watch = WatchedMonitor(try ns.generalMonitor())
            defer { watch.stop() }
            XCTAssertEqual(watch.last?.supportsDNS, false, "\(watch.paths.all)")
            try rewriteAndFollow(ns, watch)
        }
    }

    /// `/etc/netns` exists, but the namespace's directory and file appear only after the monitor
    /// started (the usual order: whoever configures the namespace writes them later). A placeholder
    /// directory of this test keeps `/etc/netns` in place.
    func testSupportsDNS_namespaceDirectoryCreatedAfterTheMonitorStarted_updatesAScheduledMonitor() throws {
        try withPathNamespace { ns in
            let placeholder = "/etc/netns/\(ns.name)-placeholder"
            try FileManager.default.createDirectory(atPath: placeholder, withIntermediateDirectories: true)
            defer {
                rmdir(placeholder)
                rmdir("/etc/netns")  // only when empty: other namespaces' files stay
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: "/etc/netns/\(ns.name)"))
            try addDefault(ns)
            try fileAppearsAfterStart(ns)
        }
    }

    /// Neither `/etc/netns` nor the namespace's directory exist when the monitor starts (a machine
    /// where no namespace has configuration files yet); both appear later. Skipped when another
    /// process keeps `/etc/netns` in place meanwhile.
    func testSupportsDNS_etcNetnsCreatedAfterTheMonitorStarted_updatesAScheduledMonitor() throws {
        try withPathNamespace { ns in
            guard !FileManager.default.fileExists(atPath: "/etc/netns") else {
                throw XCTSkip("/etc/netns exists (another namespace's configuration): this case needs it absent")
            }
            try addDefault(ns)
            try fileAppearsAfterStart(ns)
        }
    }

    private func fileAppearsAfterStart(_ ns: Namespace, file: StaticString = #filePath, line: UInt = #line) throws {
        let etcNetnsExisted = FileManager.default.fileExists(atPath: "/etc/netns")
        let watch = WatchedMonitor(try ns.generalMonitor())
        defer { watch.stop() }
        XCTAssertEqual(watch.last?.supportsDNS, hostResolvConfHasNameServer, "\(watch.paths.all)", file: file, line: line)

        // When the namespace's file appears, saying the opposite of the host's
        let count = watch.paths.count
        try ns.setResolvConf(hostResolvConfHasNameServer ? "search example.org\n" : "nameserver 192.0.2.53\n")
        let first = watch.wait(until: "the new file's supportsDNS arrived (/etc/netns existed at start: \(etcNetnsExisted))",
                               file: file, line: line) {
            $0.supportsDNS != self.hostResolvConfHasNameServer
        }
        XCTAssertGreaterThan(watch.paths.count, count, "pathUpdateHandler fired", file: file, line: line)
        // A fresh monitor reads the file (so the file is right, and only the scheduled monitor missed it)
        XCTAssertEqual(try ns.generalMonitor().currentPath.supportsDNS, !hostResolvConfHasNameServer, file: file, line: line)
        guard first != nil else { return }
        try rewriteAndFollow(ns, watch, file: file, line: line)
    }

    /// Rewrites the namespace's resolv.conf with and without a name server, then removes it; each
    /// step must reach the scheduled monitor's handler.
    private func rewriteAndFollow(_ ns: Namespace, _ watch: WatchedMonitor, file: StaticString = #filePath, line: UInt = #line) throws {
        for (text, expected) in [("nameserver 192.0.2.53\n", true), ("options edns0\n", false), ("nameserver 2001:db8::53\n", true)] {
            let count = watch.paths.count
            try ns.setResolvConf(text)
            let path = watch.wait(until: "supportsDNS is \(expected) after writing \(text.debugDescription)", file: file, line: line) {
                $0.supportsDNS == expected
            }
            XCTAssertEqual(path?.status, .satisfied, "\(String(describing: path))", file: file, line: line)
            XCTAssertGreaterThan(watch.paths.count, count, "pathUpdateHandler fired", file: file, line: line)
        }
        // When the namespace's file goes, the host's decides: written first without a name server when the host has one
        if hostResolvConfHasNameServer {
            try ns.setResolvConf("options edns0\n")
            watch.wait(until: "supportsDNS is false", file: file, line: line) { !$0.supportsDNS }
        }
        try FileManager.default.removeItem(atPath: "/etc/netns/\(ns.name)/resolv.conf")
        let removed = watch.wait(until: "supportsDNS follows /etc/resolv.conf once the namespace's file is gone", file: file, line: line) {
            $0.supportsDNS == self.hostResolvConfHasNameServer
        }
        XCTAssertNotNil(removed, file: file, line: line)
        XCTAssertEqual(watch.monitor.currentPath.supportsDNS, hostResolvConfHasNameServer, file: file, line: line)
    }
}
