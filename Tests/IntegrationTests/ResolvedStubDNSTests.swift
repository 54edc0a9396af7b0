import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// systemd-resolved's stub as a host has it: a real dnsmasq listening on 127.0.0.53 inside the
/// namespace, forwarding to the test's server, `/etc/resolv.conf` naming only the stub, and
/// resolved's list of upstream servers at its real path, `/run/systemd/resolve/resolv.conf`, in a
/// private mount namespace of the `reachability` command run there as its own namespace
/// (`ip netns exec`). Once resolved's file lists no upstream, a name says `noDNSServer`.
final class ResolvedStubDNSTests: XCTestCase {
    private static let deadline: TimeInterval = 30
    private static let unshareExecutable = ["/usr/bin/unshare", "/bin/unshare"].first { FileManager.default.isExecutableFile(atPath: $0) }
    private static let stubAddress = "127.0.0.53"
    private static let name = "stub.nrx.test"

    /// The command line that runs `arguments` of the `reachability` command in the bed's namespace
    /// (its own: `ip netns exec`), with a `/run` of its own holding `resolved` at
    /// `/run/systemd/resolve` (bound, so that the test's writes there reach it).
    private func commandLine(in bed: DNSTestBed, resolved: String, _ arguments: [String]) throws -> [String] {
        let unshare = try XCTUnwrap(Self.unshareExecutable, "test setup: no unshare (util-linux)")
        let script = #"mount -t tmpfs nrx-run /run && mkdir -p /run/systemd/resolve && mount --bind "$0" /run/systemd/resolve && exec "$@""#
        return ["netns", "exec", bed.name, unshare, "-m", "/bin/sh", "-c", script, resolved, try CommandTestCase.binaryPath()] + arguments
    }

    /// resolved's file as resolved writes it, naming `servers`.
    private static func resolvedFile(_ servers: [String]) -> String {
        "# This is /run/systemd/resolve/resolv.conf managed by man:systemd-resolved(8).\n# Do not edit.\n\n"
            + (servers.isEmpty ? "# No DNS servers known.\n" : servers.map { "nameserver \($0)\n" }.joined())
            + "search .\n"
    }

    private func writeByRename(_ path: String, _ text: String) throws {
        let temporary = (path as NSString).deletingLastPathComponent + "/.#resolv.confXXXX"
        try text.write(toFile: temporary, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(temporary, path), 0, "rename \(temporary)")
    }

    func testHostName_behindResolvedsStub_saysNoDNSServer_onceResolvedListsNoUpstream() throws {
        try withDNSLAN(requiring: [.dnsmasq]) { bed in
            let resolved = NSTemporaryDirectory() + "nrx-resolve-\(getpid())-\(bed.name.hashValue.magnitude)"
            try FileManager.default.createDirectory(atPath: resolved, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: resolved) }
            // Given the test's server as resolved's one upstream, and the stub forwarding to it
            let upstream = try bed.startDNSServer([DNSRecord(Self.name, LAN.onLink)])
            try bed.startDnsmasq(listeningOn: Self.stubAddress, ["--server=\(DNSTestBed.serverAddress)"])
            try bed.replaceByRename("resolv.conf", with: "nameserver \(Self.stubAddress)\noptions timeout:1 attempts:1 edns0 trust-ad\nsearch .\n")
            try writeByRename(resolved + "/resolv.conf", Self.resolvedFile([DNSTestBed.serverAddress]))

            // When a host-name monitor watches the name through the stub
            let watch = try bed.startProcess(ipExecutable, try commandLine(in: bed, resolved: resolved, ["watch", "--json", Self.name]),
                                             description: "reachability watch behind the stub")
            defer { watch.stop() }
            func path(of line: String) -> [String: Any]? {
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["path"] as? [String: Any]
            }
            // Then it resolves, and DNS is supported
            watch.lines.wait(until: "the name resolves through the stub; stderr: \(watch.standardError)") {
                $0.last.flatMap(path)?["status"] as? String == "satisfied"
            }
            XCTAssertEqual(path(of: watch.lines.all.last!)?["supportsDNS"] as? Bool, true, watch.lines.all.last!)

            // When resolved loses its upstream server (it stops answering, and its file lists none)
            upstream.stop()
            try writeByRename(resolved + "/resolv.conf", Self.resolvedFile([]))
            // Then the monitor says there is no DNS server
            watch.lines.wait(until: "the monitor says noDNSServer; stderr: \(watch.standardError)") {
                $0.last.flatMap(path)?["unsatisfiedReason"] as? String == "noDNSServer"
            }
            XCTAssertEqual(path(of: watch.lines.all.last!)?["supportsDNS"] as? Bool, false, watch.lines.all.last!)

            // And `reachability check` on such a host prints it
            let check = try runCommand(ipExecutable, try commandLine(in: bed, resolved: resolved, ["check", Self.name]))
            XCTAssertEqual(check.status, 1, "not reachable exits 1; stderr: \(check.standardError)")
            XCTAssertTrue(check.standardOutput.contains("no DNS server"), check.standardOutput)
        }
    }
}
