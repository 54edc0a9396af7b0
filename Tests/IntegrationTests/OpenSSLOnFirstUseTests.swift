import Foundation
import XCTest

/// OpenSSL is loaded by the first `https://` probe, never at start: a command that probes no
/// `https://` URL maps neither libssl nor libcrypto, and runs on a machine without them, where an
/// `https://` probe fails with one line naming the package to install.
final class OpenSSLOnFirstUseTests: CommandTestCase {
    /// The file names of OpenSSL's libraries mapped into process `pid` (`/proc/PID/maps`).
    private func openSSLMapped(in pid: Int32) throws -> Set<String> {
        let maps = try String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)
        return Set(maps.split(separator: "\n").compactMap { line in
            line.split(separator: "/").last.map(String.init).flatMap { $0.hasPrefix("libssl") || $0.hasPrefix("libcrypto") ? $0 : nil }
        })
    }

    func testWatchWithoutAProbe_mapsNoOpenSSL() throws {
        let watch = try startWatch("--json")
        defer { watch.terminateIfRunning() }
        XCTAssertNotNil(watch.stdout.nextLine(before: .now() + Self.deadline), "the initial record")
        XCTAssertEqual(try openSSLMapped(in: watch.process.processIdentifier), [], "no https:// probe, no OpenSSL")
    }

    func testHTTPSProbe_loadsOpenSSL_andReachesFull() throws {
        try withTLSLab { tls in
            let watch = try startReachability(["watch", "--netns", tls.lab.client.name, "--json", "--probe", TLSLab.url,
                                               "--probe-ca", tls.caFile, "--probe-interval", "2"])
            defer { watch.terminateIfRunning() }
            var connectivity: String?
            while connectivity != "full", let line = watch.stdout.nextLine(before: .now() + Self.deadline) {
                connectivity = (try parseRecord(line)["path"] as? [String: Any])?["connectivity"] as? String
            }
            XCTAssertEqual(connectivity, "full", watch.stderr.remainder(before: .now()))
            XCTAssertEqual(try openSSLMapped(in: watch.process.processIdentifier), ["libssl.so.3", "libcrypto.so.3"])
        }
    }

    func testWithoutLibssl_watchAndCheckRun_anHTTPSProbeNamesThePackage() throws {
        try withTLSLab { tls in
            let plainCheck = try withoutOpenSSL(["check", "--netns", tls.lab.client.name, "10.88.0.2"])
            XCTAssertEqual(plainCheck.status, 0, "check without a probe runs: \(plainCheck.stderr)")

            let watch = try Self.start("/usr/bin/unshare", try hidingOpenSSL(["watch", "--netns", tls.lab.client.name, "--json"]))
            defer { watch.terminateIfRunning() }
            let first = watch.stdout.nextLine(before: .now() + Self.deadline)
            XCTAssertNotNil(first, "watch without a probe runs: \(watch.stderr.remainder(before: .now()))")

            // The same probe that reaches `full` where OpenSSL is installed (the test above).
            let probed = try withoutOpenSSL(["check", "--netns", tls.lab.client.name, "--probe", TLSLab.url, "--probe-ca", tls.caFile])
            XCTAssertEqual(probed.status, 1, probed.stderr)
            let lines = probed.stdout.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, probed.stdout)
            XCTAssertTrue(probed.stdout.contains("limited (TLS: OpenSSL 3 not installed: install libssl3 (Debian, Ubuntu) or openssl-libs"),
                          probed.stdout)
            XCTAssertEqual(tls.connections, 0, "no connection is made for an https:// probe that cannot speak TLS")
        }
    }

    /// Runs the command in a private mount namespace where libssl.so.3 and libcrypto.so.3 are
    /// empty files (`/dev/null` bound over each), as on a machine without the package.
    private func withoutOpenSSL(_ arguments: [String]) throws -> Finished {
        try Self.run("/usr/bin/unshare", try hidingOpenSSL(arguments))
    }

    /// `unshare`'s arguments: a private mount namespace, the libraries hidden, then the command.
    private func hidingOpenSSL(_ arguments: [String]) throws -> [String] {
        let hide = try Self.openSSLFiles().map { "mount --bind /dev/null \($0)" }.joined(separator: " && ")
        return ["--mount", "--propagation", "private", "/bin/sh", "-c", "\(hide) && exec \"$0\" \"$@\"", try Self.binaryPath()] + arguments
    }

    /// Where the dynamic loader finds OpenSSL's libraries (`ldconfig -p`), resolved.
    private static func openSSLFiles() throws -> [String] {
        let listed = try run("/sbin/ldconfig", ["-p"]).stdout
        let files = ["libssl.so.3", "libcrypto.so.3"].compactMap { name in
            listed.split(separator: "\n").first { $0.contains("\(name) (") }
                .flatMap { $0.components(separatedBy: " => ").last }
                .map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        }
        guard files.count == 2 else { throw Failure("ldconfig -p lists no libssl.so.3 and libcrypto.so.3: \(files)") }
        return files
    }
}
