import Foundation
import NetworkReachability
import XCTest

/// Two throwaway namespaces for the connectivity tests: a client, and an "upstream" joined to it
/// by a veth pair (`c0` 10.88.0.1/24 in the client, with a default route via `u0` 10.88.0.2/24 in
/// the upstream), where `Tests/Servers/probe_server.py` answers on 10.88.0.2:8080 as `mode` says
/// and counts the connections it accepted.
final class ProbeLab: @unchecked Sendable {  // `let`s only, and a Process used from the test's thread
    let client: Namespace
    let upstream: Namespace
    let stateDirectory: String
    private let server: Process

    static let serverAddress = "10.88.0.2"
    static let port = 8080
    /// The URL of the server's answer; its path does not matter to the server.
    static let url = "http://10.88.0.2:8080/generate_204"

    /// A probe of the lab's server with short times, so the tests stay quick.
    static func probe(_ url: String = ProbeLab.url, expecting: String? = nil, timeout: Duration = .milliseconds(1500),
                      interval: Duration = .seconds(2)) throws -> ConnectivityProbe {
        try ConnectivityProbe(url: url, expecting: expecting, timeout: timeout, interval: interval)
    }

    fileprivate init(client: Namespace, upstream: Namespace, mode: String) throws {
        self.client = client
        self.upstream = upstream
        stateDirectory = NSTemporaryDirectory() + "nrx-probe-\(getpid())-\(client.name.hashValue.magnitude)"
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        try client.ip("link", "add", "c0", "type", "veth", "peer", "name", "u0", "netns", upstream.name)
        try client.ip("link", "set", "c0", "addrgenmode", "none")
        try upstream.ip("link", "set", "u0", "addrgenmode", "none")
        try client.ip("addr", "add", "10.88.0.1/24", "dev", "c0")
        try upstream.ip("addr", "add", "10.88.0.2/24", "dev", "u0")
        try upstream.ip("link", "set", "u0", "up")
        try client.ip("link", "set", "c0", "up")
        try client.ip("route", "add", "default", "via", Self.serverAddress)
        try client.waitForLink("c0", carrier: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Servers/probe_server.py").path
        server = Process()
        server.executableURL = URL(fileURLWithPath: ipExecutable)
        server.arguments = ["netns", "exec", upstream.name, "python3", script, "--address", Self.serverAddress,
                            "--port", String(Self.port), "--state", stateDirectory]
        server.standardInput = FileHandle.nullDevice
        setMode(mode)
        try server.run()
        let ready = stateDirectory + "/ready"
        try waitUntil("the probe server listens") { FileManager.default.fileExists(atPath: ready) || !server.isRunning }
        guard server.isRunning else { throw TimedOut(what: "the probe server started (it exited)") }
    }

    /// What the server does with the next connection: `204`, `200ok`, `200chunked`, `302`, `302js`,
    /// `302data`, `302file` (a redirect to `javascript:`, `data:`, `file:`), `login`, `511`, `garbage`, `silent`, `bigheader`, `endless`, `slowloris`, `reset`.
    func setMode(_ mode: String) {
        let path = stateDirectory + "/mode"
        _ = FileManager.default.createFile(atPath: path + ".tmp", contents: Data(mode.utf8))
        _ = rename(path + ".tmp", path)
    }

    /// The path a monitor of the client namespace, not started, gets from `checkConnectivity()`
    /// with `probe`, once the server answers as `mode`.
    func checkedPath(_ mode: String, probe: ConnectivityProbe) throws -> NetworkPath {
        setMode(mode)
        return try checkedPath(probe: probe)
    }

    /// The path a monitor of the client namespace, not started, gets from `checkConnectivity()` with `probe`.
    func checkedPath(probe: ConnectivityProbe) throws -> NetworkPath {
        let monitor = try client.generalMonitor()
        monitor.connectivityProbe = probe
        return awaitPath { await monitor.checkConnectivity() }
    }

    /// How many connections the server accepted so far.
    var connections: Int {
        (try? String(contentsOfFile: stateDirectory + "/connections", encoding: .utf8)).flatMap { Int($0) } ?? -1
    }

    /// When the server accepted each connection so far, in seconds of CLOCK_MONOTONIC (one clock
    /// for every namespace), in order.
    var connectionTimes: [Double] {
        let text = (try? String(contentsOfFile: stateDirectory + "/connections-times", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { Double($0) }
    }

    fileprivate func stop() {
        if server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: stateDirectory)
    }
}

/// Runs `body` with a fresh `ProbeLab` whose server starts in `mode`; everything is removed after.
func withProbeLab(_ function: String = #function, mode: String = "204", file: StaticString = #filePath, line: UInt = #line,
                  _ body: (ProbeLab) throws -> Void) throws {
    try withNamespace(function, file: file, line: line) { client in
        try withNamespace(function, file: file, line: line) { upstream in
            let lab = try ProbeLab(client: client, upstream: upstream, mode: mode)
            defer { lab.stop() }
            try body(lab)
        }
    }
}

/// Starts `monitor` on a queue of its own and records every path its handler receives, and every flags callback.
final class ConnectivityWatch: Sendable {
    let monitor: PathMonitor
    let paths = Recorder<NetworkPath>()
    let flags = Recorder<ReachabilityFlags>()

    init(_ monitor: PathMonitor) {
        self.monitor = monitor
        let paths = self.paths, flags = self.flags
        monitor.pathUpdateHandler = { paths.append($0) }
        monitor.setCallback { flags.append($0) }
        monitor.start(queue: DispatchQueue(label: "connectivity-test"))
    }

    /// Waits until the last path delivered says `connectivity`.
    @discardableResult
    func wait(for connectivity: Connectivity, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        paths.wait(until: "connectivity is \(connectivity)", file: file, line: line) { $0.last?.connectivity == connectivity }
    }

    var connectivities: [Connectivity] { paths.all.map(\.connectivity) }
}
