import Foundation
@testable import NetworkReachabilityCore
import ReachabilityModel
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `supportsDNS` behind systemd-resolved's stub, over fixture directories written the way
/// resolved and networkd write theirs: resolved's `resolv.conf` (every upstream server) and
/// networkd's link state files (`DNS=`, the servers of one link), followed with inotify.
final class ResolvedStubFixtureTests: XCTestCase {
    private static let resolvedHeader = """
        # This is /run/systemd/resolve/resolv.conf managed by man:systemd-resolved(8).
        # Do not edit.
        #
        # This file might be symlinked as /etc/resolv.conf. If you're looking at
        # /etc/resolv.conf and seeing this text, you have followed the symlink.

        """
    private static let noUpstream = resolvedHeader + "# No DNS servers known.\nsearch .\n"
    private static let upstream = "192.0.2.53"
    private static let withUpstream = resolvedHeader + "nameserver \(upstream)\nsearch .\n"

    /// A temporary directory standing for `/run/systemd/...`, removed on every exit path.
    private func withFixtureDirectories(_ body: (_ resolved: String, _ networkd: String) throws -> Void) throws {
        let root = NSTemporaryDirectory() + "nrx-resolved-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let resolved = root + "/resolve", networkd = root + "/links"
        for directory in [resolved, networkd] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        try body(resolved, networkd)
    }

    /// Writes a file as resolved and networkd do: a temporary file renamed over the old one.
    private func writeByRename(_ path: String, _ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let temporary = (path as NSString).deletingLastPathComponent + "/.#" + (path as NSString).lastPathComponent + "XXXX"
        try text.write(toFile: temporary, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(temporary, path), 0, "rename \(temporary)", file: file, line: line)
    }

    /// Rewrites a file through its own inode (truncated, then written).
    private func writeInPlace(_ path: String, _ text: String) throws {
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path), path)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    private static func linkState(dns: String?) -> String {
        """
        # This is private data. Do not parse.
        ADMIN_STATE=configured
        OPER_STATE=routable
        CARRIER_STATE=carrier
        ADDRESS_STATE=routable
        NETWORK_FILE=/etc/systemd/network/10-v0.network
        \(dns.map { "DNS=\($0)\n" } ?? "")NTP=
        LLMNR=yes
        MDNS=no

        """
    }

    func testSupportsDNS_behindTheStub_followsResolvedsUpstreams_andNetworkdsLinks() throws {
        try withDNSLAN(requiring: []) { bed in
            // A second link with carrier, so that a server of one link can be seen not to serve the other.
            try bed.namespace.addVeth("v2", addresses: ["10.29.0.2/24"], linkLocal: false)
            try bed.namespace.waitForLink("v2", carrier: true)
            try bed.replaceByRename("resolv.conf", with: "# stub-resolv.conf\nnameserver 127.0.0.53\noptions edns0 trust-ad\nsearch .\n")
            try withFixtureDirectories { resolved, networkd in
                let servers = resolved + "/resolv.conf"
                // Given resolved's stub with no upstream server
                try writeByRename(servers, Self.noUpstream)
                let policy = InterfacePolicy(sysfsRoot: nil, networkdLinksRoot: networkd, resolvedRoot: resolved)
                func watch(_ address: String) throws -> ConnectivityWatch {
                    ConnectivityWatch(try PathMonitor(address: address, namespace: bed.namespace.reference, interfacePolicy: policy))
                }
                let overV0 = try watch(LAN.onLink), overV2 = try watch("10.29.0.5"), refused = try watch(LAN.refused)
                defer { [overV0, overV2, refused].forEach { $0.monitor.cancel() } }
                func expect(v0: Bool, v2: Bool, _ what: String, line: UInt = #line) {
                    overV0.paths.wait(until: "v0's path supportsDNS \(v0): \(what)", line: line) {
                        $0.last?.status == .satisfied && $0.last?.supportsDNS == v0
                    }
                    overV2.paths.wait(until: "v2's path supportsDNS \(v2): \(what)", line: line) {
                        $0.last?.status == .satisfied && $0.last?.supportsDNS == v2
                    }
                }
                expect(v0: false, v2: false, "the stub has no upstream")

                // When resolved learns an upstream that networkd lists for no link: global
                try writeByRename(servers, Self.withUpstream)
                expect(v0: true, v2: true, "a global upstream")

                // When networkd lists it for v0 only
                let v0 = try XCTUnwrap(overV0.paths.all.last?.interface?.index)
                try writeByRename("\(networkd)/\(v0)", Self.linkState(dns: "\(Self.upstream) [2001:db8::53]:53"))
                expect(v0: true, v2: false, "the upstream is v0's")

                // When resolved's file is rewritten in place with no upstream
                try writeInPlace(servers, Self.noUpstream)
                expect(v0: false, v2: false, "the upstreams vanished")

                // When it is replaced by rename with the upstream again
                try writeByRename(servers, Self.withUpstream)
                expect(v0: true, v2: false, "v0's upstream is back")

                // When networkd's record of v0 loses its DNS= line (in place): global again
                try writeInPlace("\(networkd)/\(v0)", Self.linkState(dns: nil))
                expect(v0: true, v2: true, "the upstream is no link's")

                // A path with no usable interface supports no DNS, whatever the servers
                XCTAssertEqual(refused.paths.all.last?.status, .unsatisfied)
                XCTAssertEqual(refused.paths.all.last?.supportsDNS, false, "\(refused.paths.all)")

                // When resolv.conf names a local stub whose upstreams cannot be read
                // (NetworkManager's dnsmasq), and resolved's file has none: taken as configured
                try writeByRename(servers, Self.noUpstream)
                expect(v0: false, v2: false, "resolved has no upstream")
                try bed.replaceByRename("resolv.conf", with: "nameserver 127.0.1.1\n")
                expect(v0: true, v2: true, "NetworkManager's dnsmasq: configured")
            }
        }
    }

    func testTheEngine_watchesEveryFile_withOneInotifyInstance() throws {
        try withDNSLAN(requiring: []) { bed in
            try withFixtureDirectories { resolved, networkd in
                let before = inotifyInstances()
                let policy = InterfacePolicy(sysfsRoot: nil, networkdLinksRoot: networkd, resolvedRoot: resolved)
                let watch = ConnectivityWatch(try PathMonitor(address: LAN.onLink, namespace: bed.namespace.reference,
                                                              interfacePolicy: policy))
                defer { watch.monitor.cancel() }
                watch.paths.wait(forCount: 1)
                // The named namespace's vanish watch (on /run/netns) has its own.
                XCTAssertEqual(inotifyInstances() - before, 2,
                               "one inotify instance for resolv.conf, resolved's servers and networkd's links, one for /run/netns")
            }
        }
    }

    /// The inotify descriptors this process holds.
    private func inotifyInstances() -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == "anon_inode:inotify" }.count
    }
}
