import Foundation
import NetworkReachability
import XCTest

/// The probe lab with an HTTPS server beside its HTTP one: `Tests/Servers/tls_server.py` on
/// 10.88.0.2:8443 in the upstream namespace, its certificates made for this run with the
/// `openssl` command (`Tests/Servers/make_test_certs.sh`: a test CA, a certificate for
/// `probe.nrx.test` and 10.88.0.2, one for another name, an expired one, a self-signed one), and
/// `probe.nrx.test` resolving to the server in the client namespace (`/etc/netns/NAME/hosts`,
/// which `withNamespace` removes with the namespace).
final class TLSLab: @unchecked Sendable {  // `let`s only, and a Process used from the test's thread
    let lab: ProbeLab
    let certificates: String
    let state: String
    private let server: Process

    static let host = "probe.nrx.test"
    static let port = 8443
    static let url = "https://probe.nrx.test:8443/generate_204"

    /// The test CA's certificate, for `caFile` / `--probe-ca`.
    var caFile: String { certificates + "/ca.pem" }

    /// A probe of the HTTPS server with short times, trusting the test CA unless told otherwise.
    func probe(_ url: String = TLSLab.url, trustingTestCA: Bool = true, timeout: Duration = .milliseconds(1500)) throws -> ConnectivityProbe {
        try ConnectivityProbe(url: url, timeout: timeout, interval: max(.seconds(2), timeout), caFile: trustingTestCA ? caFile : nil)
    }

    fileprivate init(lab: ProbeLab) throws {
        self.lab = lab
        certificates = lab.stateDirectory + "/certs"
        state = lab.stateDirectory + "/tls"
        for directory in [certificates, state] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let servers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Servers")
        let made = try runCommand("/bin/bash", [servers.appendingPathComponent("make_test_certs.sh").path, certificates,
                                                Self.host, ProbeLab.serverAddress])
        guard made.status == 0 else { throw TimedOut(what: "the test certificates were made: \(made.standardError)") }
        let hosts = "/etc/netns/\(lab.client.name)"
        try FileManager.default.createDirectory(atPath: hosts, withIntermediateDirectories: true)
        try "127.0.0.1 localhost\n\(ProbeLab.serverAddress) \(Self.host)\n".write(toFile: hosts + "/hosts", atomically: true, encoding: .utf8)
        server = Process()
        server.executableURL = URL(fileURLWithPath: ipExecutable)
        server.arguments = ["netns", "exec", lab.upstream.name, "python3", servers.appendingPathComponent("tls_server.py").path,
                            "--address", ProbeLab.serverAddress, "--port", String(Self.port), "--state", state,
                            "--certs", certificates]
        server.standardInput = FileHandle.nullDevice
        setMode("good")
        try server.run()
        try waitUntil("the TLS server listens") { FileManager.default.fileExists(atPath: state + "/ready") || !server.isRunning }
        guard server.isRunning else { throw TimedOut(what: "the TLS server started (it exited)") }
    }

    /// `good`, `wrongname`, `expired`, `selfsigned`, `stall` or `plain` (see tls_server.py).
    func setMode(_ mode: String) {
        _ = FileManager.default.createFile(atPath: state + "/mode.tmp", contents: Data(mode.utf8))
        _ = rename(state + "/mode.tmp", state + "/mode")
    }

    private func read(_ name: String) -> String {
        (try? String(contentsOfFile: state + "/" + name, encoding: .utf8)) ?? ""
    }

    /// Connections the server accepted, and requests it read over TLS.
    var connections: Int { Int(read("connections")) ?? -1 }
    var requests: Int { Int(read("requests")) ?? -1 }
    /// The server name the last TLS client sent (`-`: none).
    var serverNameIndication: String { read("sni") }

    /// The path a monitor of the client namespace, not started, gets with `probe` once the server plays `mode`.
    func checkedPath(_ mode: String, probe: ConnectivityProbe) throws -> NetworkPath {
        setMode(mode)
        return try lab.checkedPath(probe: probe)
    }

    fileprivate func stop() {
        if server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
    }
}

/// Runs `body` with a fresh `TLSLab` (and its `ProbeLab`); everything is removed after.
func withTLSLab(_ function: String = #function, file: StaticString = #filePath, line: UInt = #line,
                _ body: (TLSLab) throws -> Void) throws {
    try withProbeLab(function, file: file, line: line) { lab in
        let tls = try TLSLab(lab: lab)
        defer { tls.stop() }
        try body(tls)
    }
}
