import Foundation
import XCTest

/// `reachability check --probe https://... [--probe-ca FILE]` against the TLS lab's server.
final class ConnectivityTLSCommandTests: CommandTestCase {
    override class var makesNamespace: Bool { false }

    private func path(of line: String) throws -> [String: Any] {
        try XCTUnwrap(try parseRecord(line)["path"] as? [String: Any])
    }

    func testProbeCA_neededAndUsed() throws {
        try withTLSLab { tls in
            let base = ["check", "--netns", tls.lab.client.name, "--json", "--probe", TLSLab.url, "--probe-timeout", "1.5"]
            let untrusted = try reachability(base)
            XCTAssertEqual(untrusted.status, 1, "the system's store does not trust the test CA: \(untrusted.stderr)")
            XCTAssertEqual(try path(of: untrusted.stdout)["connectivity"] as? String, "limited")
            XCTAssertEqual(try path(of: untrusted.stdout)["connectivityReason"] as? String, "TLS: certificate not trusted")
            let trusted = try reachability(base + ["--probe-ca", tls.caFile])
            XCTAssertEqual(trusted.status, 0, trusted.stderr)
            XCTAssertEqual(try path(of: trusted.stdout)["connectivity"] as? String, "full")
            XCTAssertTrue(try path(of: trusted.stdout)["connectivityReason"] is NSNull)
            tls.setMode("expired")
            let expired = try reachability(["check", "--netns", tls.lab.client.name, "--probe", TLSLab.url, "--probe-ca", tls.caFile])
            XCTAssertEqual(expired.status, 1)
            XCTAssertTrue(expired.stdout.contains("limited (TLS: certificate expired)"), expired.stdout)
        }
    }

    func testProbeCA_badInput_exit2OrUsage() throws {
        let missing = try reachability(["check", "--probe", "https://192.0.2.1/", "--probe-ca", "/nonexistent/ca.pem"])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("/nonexistent/ca.pem") && missing.stderr.contains("cannot be read"), missing.stderr)
        let notHTTPS = try reachability(["check", "--probe", "http://192.0.2.1/", "--probe-ca", "/etc/hostname"])
        XCTAssertEqual(notHTTPS.status, 2, notHTTPS.stderr)
        XCTAssertTrue(notHTTPS.stderr.contains("needs an https:// probe"), notHTTPS.stderr)
        let notPEM = try reachability(["check", "--probe", "https://192.0.2.1/", "--probe-ca", "/etc/hostname"])
        XCTAssertEqual(notPEM.status, 2, notPEM.stderr)
        XCTAssertTrue(notPEM.stderr.contains("holds no PEM certificate"), notPEM.stderr)
        let alone = try reachability(["check", "--probe-ca", "/etc/hostname"])
        XCTAssertEqual(alone.status, 64, "a usage error: \(alone.stderr)")
    }
}
