import Foundation
import NetworkReachability
import ReachabilityModel
import XCTest

/// The TLS lab with a captive-portal API beside it: `Tests/Servers/captive_api_server.py` on
/// 10.88.0.2:8444 in the upstream namespace, with the lab's certificate for `probe.nrx.test`, and
/// a networkd fixture root whose link state file announces it for the client's interface.
final class CaptiveAPILab: @unchecked Sendable {  // `let`s only, and a Process used from the test's thread
    let tls: TLSLab
    let state: String
    let networkdRoot: String
    private let server: Process

    static let port = 8444
    static let uri = "https://probe.nrx.test:8444/captive"

    fileprivate init(tls: TLSLab) throws {
        self.tls = tls
        state = tls.lab.stateDirectory + "/api"
        networkdRoot = tls.lab.stateDirectory + "/networkd"
        for directory in [state, networkdRoot] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Servers/captive_api_server.py").path
        server = Process()
        server.executableURL = URL(fileURLWithPath: ipExecutable)
        server.arguments = ["netns", "exec", tls.lab.upstream.name, "python3", script, "--address", ProbeLab.serverAddress,
                            "--port", String(Self.port), "--state", state, "--certs", tls.certificates]
        server.standardInput = FileHandle.nullDevice
        try server.run()
        try waitUntil("the API server listens") { FileManager.default.fileExists(atPath: state + "/ready") || !server.isRunning }
        guard server.isRunning else { throw TimedOut(what: "the API server started (it exited)") }
    }

    /// `captive`, `open`, `wrongtype`, `garbage`, `huge`, `stallbody` (see captive_api_server.py).
    func setMode(_ mode: String) {
        _ = FileManager.default.createFile(atPath: state + "/mode.tmp", contents: Data(mode.utf8))
        _ = rename(state + "/mode.tmp", state + "/mode")
    }

    private func read(_ name: String) -> String {
        (try? String(contentsOfFile: state + "/" + name, encoding: .utf8)) ?? ""
    }

    /// Requests the API server read, and the last one's `Accept`.
    var requests: Int { Int(read("requests")) ?? -1 }
    var accept: String { read("accept") }

    /// When the server read each request so far, in seconds of CLOCK_MONOTONIC (one clock for
    /// every namespace), in order.
    var requestTimes: [Double] {
        read("requests-times").split(separator: "\n").compactMap { Double($0) }
    }

    /// A general monitor of the client namespace that reads the networkd fixture root.
    func monitor() throws -> PathMonitor {
        try tls.lab.client.generalMonitor(policy: InterfacePolicy(sysfsRoot: nil, networkdLinksRoot: networkdRoot))
    }

    /// Announces `uri` for interface `index`, as networkd writes its link state file.
    func announce(_ uri: String, index: Int) throws {
        try "CAPTIVE_PORTAL=\(uri)\n".write(toFile: "\(networkdRoot)/.\(index).tmp", atomically: false, encoding: .utf8)
        XCTAssertEqual(rename("\(networkdRoot)/.\(index).tmp", "\(networkdRoot)/\(index)"), 0)
    }

    fileprivate func stop() {
        if server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
    }
}

/// Runs `body` with a fresh `CaptiveAPILab` (and its TLS and probe labs); everything is removed after.
func withCaptiveAPILab(_ function: String = #function, file: StaticString = #filePath, line: UInt = #line,
                       _ body: (CaptiveAPILab) throws -> Void) throws {
    try withTLSLab(function, file: file, line: line) { tls in
        let api = try CaptiveAPILab(tls: tls)
        defer { api.stop() }
        try body(api)
    }
}
