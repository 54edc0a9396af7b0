import BenchSupport
import Dispatch
import Foundation
import NetworkReachability
import Synchronization

// `nrx-bench probe-flags [--rounds R] [--changes N] [--gap-ms G] [--stall]`: are flags callbacks as fast with
// an `https://` probe or the captive-portal API configured as without (issue 23)? Same run,
// interleaved: in each of R rounds, one block per configuration, in an order rotated each round
// so that load from other processes falls on all three alike. A block starts a general monitor
// with its configuration, then flaps the default route N times, G ms apart, timing each flags
// callback from the change (re-adds and removals also apart), and takes the CPU of the
// process's worker threads over the block:
// - `none`: no probe, no API;
// - `https`: an `https://` probe of Tests/Servers/tls_server.py (a probe on every re-add);
// - `api`: `fetchesCaptivePortalAPI`, the API (Tests/Servers/captive_api_server.py, `captive:
//   false`) announced by a real RA's option 37 at the start of the block (a fetch on every re-add).
// `--stall`: both servers never answer, so no handshake completes (what the crypto costs the flags).
// Two namespaces: a client (v0 10.77.0.1/24, default via 10.77.0.2, accepting RAs) and an
// upstream (v1 10.77.0.2/24) with both servers and a certificate made by make_test_certs.sh.
func probeFlagsScenario() throws {
    let rounds = int("rounds", 6)
    let changes = int("changes", 100)
    let gap = double("gap-ms", 50) / 1000
    let upstream = try BenchNamespace(purpose: "pf-up", setup: ["link set lo up"])
    defer { upstream.delete() }
    let client = try BenchNamespace(purpose: "pf-client", setup: [
        "link set lo up", "link add v0 type veth peer name v1 netns \(upstream.name)", "link set v0 up",
        "addr add 10.77.0.1/24 dev v0", "route add default via 10.77.0.2",
    ])
    defer { client.delete() }
    try upstream.batch(["link set v1 up", "addr add 10.77.0.2/24 dev v1"])
    let servers = try ProbeFlagsServers(upstream: upstream, stall: flag("stall"))
    defer { servers.stop() }

    let changer = try RouteChanger(namespace: client)
    let configurations = ["none", "https", "api"]
    var latency = Dictionary(uniqueKeysWithValues: configurations.map { ($0, Samples()) })
    // Split by change: a re-add makes the path satisfied again, which starts a probe or fetch.
    var readds = latency, removals = latency
    var blockP50 = Dictionary(uniqueKeysWithValues: configurations.map { ($0, [Double]()) })
    var cpuPerChange = Dictionary(uniqueKeysWithValues: configurations.map { ($0, Samples()) })
    var runs = Dictionary(uniqueKeysWithValues: configurations.map { ($0, 0) })
    for round in 0..<rounds {
        for offset in 0..<configurations.count {
            let configuration = configurations[(round + offset) % configurations.count]
            let monitor = PathMonitor(namespace: client.networkNamespace)
            switch configuration {
            case "https":
                monitor.connectivityProbe = try ConnectivityProbe(url: "https://10.77.0.2:8443/generate_204", interval: .seconds(300),
                                                                  caFile: servers.caFile)
            case "api":
                monitor.fetchesCaptivePortalAPI = true
                monitor.captivePortalAPICAFile = servers.caFile
            default: break
            }
            let arrived = DispatchSemaphore(value: 0)
            let stamp = Stamp()
            monitor.setCallback { _ in
                stamp.value.store(ProcessFigures.monotonicNs, ordering: .releasing)
                arrived.signal()
            }
            monitor.pathUpdateHandler = { _ in }
            monitor.start(queue: DispatchQueue(label: "nrx-bench.probe-flags"))
            guard arrived.wait(timeout: .now() + 5) == .success else { throw BenchError("no first flags callback" + client.vanishNote) }
            if configuration == "api" {
                try servers.announce(ProbeFlagsServers.api, in: upstream)
                try waitFor("the API announced on the path") { monitor.currentPath.captivePortalAPI != nil }
                if !flag("stall") { try waitFor("the API's answer on the path") { monitor.currentPath.captivePortal != nil } }
            }
            settle(0.3)
            guard (monitor.currentPath.captivePortalAPI != nil) == (configuration == "api") else {
                throw BenchError("\(configuration): the API announced \(monitor.currentPath.captivePortalAPI ?? "nowhere")")
            }
            while arrived.wait(timeout: .now()) == .success {}
            var block = Samples()
            let runs0 = servers.runs, cpu0 = ProcessFigures.workerCpuNs
            for i in 0..<changes {
                let t0 = ProcessFigures.monotonicNs
                try changer.defaultRoute(add: i % 2 == 1)
                guard arrived.wait(timeout: .now() + 2) == .success else { throw BenchError("no flags callback" + client.vanishNote) }
                let elapsed = us(stamp.value.load(ordering: .acquiring) - t0)
                block.add(elapsed)
                if i % 2 == 1 { readds[configuration]!.add(elapsed) } else { removals[configuration]!.add(elapsed) }
                settle(gap)
            }
            cpuPerChange[configuration]!.add(us(ProcessFigures.workerCpuNs - cpu0) / Double(changes))
            runs[configuration]! += servers.runs - runs0
            if configuration == "api" {
                // The engine outlives the block's monitor: the network withdraws the API, or the
                // next block's monitor would find it announced.
                try servers.announce("urn:ietf:params:capport:unrestricted", in: upstream)
                try waitFor("the API withdrawn") { monitor.currentPath.captivePortalAPI == nil }
            }
            monitor.cancel()
            if changes % 2 == 1 { try changer.defaultRoute(add: true) }
            block.values.forEach { latency[configuration]!.add($0) }
            blockP50[configuration]!.append(round1(block.p50))
            note("round \(round + 1) \(configuration): p50 \(round1(block.p50)) µs")
        }
    }
    var record: [String: Any] = ["scenario": "probe-flags", "rounds": rounds, "changes_per_block": changes, "gap_ms": gap * 1000]
    for configuration in configurations {
        record["flags_\(configuration)_us"] = latency[configuration]!.json(digits: 1)
        record["flags_\(configuration)_readd_us"] = readds[configuration]!.json(digits: 1)
        record["flags_\(configuration)_removal_us"] = removals[configuration]!.json(digits: 1)
        record["block_p50_\(configuration)_us"] = blockP50[configuration]!
        record["cpu_per_change_\(configuration)_us"] = cpuPerChange[configuration]!.json(digits: 1)
        record["runs_\(configuration)"] = runs[configuration]!
    }
    emitRecord(record)
}

/// The upstream's HTTPS probe server and captive-portal API, with certificates for 10.77.0.2.
private final class ProbeFlagsServers {
    let state = NSTemporaryDirectory() + "nrx-bench-probe-flags-\(getpid())"
    let servers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests/Servers").path
    private var processes: [Process] = []
    var caFile: String { state + "/certs/ca.pem" }

    /// - Parameter stall: both servers read and never answer (`stall`): the probe and the fetch
    ///   connect and send their ClientHello, and no handshake's crypto runs on either side.
    init(upstream: BenchNamespace, stall: Bool) throws {
        for directory in ["certs", "tls", "api"] {
            try FileManager.default.createDirectory(atPath: state + "/" + directory, withIntermediateDirectories: true)
        }
        try Bench.run(["bash", servers + "/make_test_certs.sh", state + "/certs", "probe.nrx.test", "10.77.0.2"])
        // `captive: false`: the API answers and the path stays `full`, as on an open network.
        try (stall ? "stall" : "open").write(toFile: state + "/api/mode", atomically: true, encoding: .utf8)
        if stall { try "stall".write(toFile: state + "/tls/mode", atomically: true, encoding: .utf8) }
        for (script, port, directory) in [("tls_server.py", 8443, "tls"), ("captive_api_server.py", 8444, "api")] {
            let server = Process()
            server.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
            server.arguments = ["netns", "exec", upstream.name, "python3", servers + "/" + script, "--address", "10.77.0.2",
                                "--port", String(port), "--state", state + "/" + directory, "--certs", state + "/certs"]
            try server.run()
            processes.append(server)
        }
        try waitFor("the servers listen") { ["tls", "api"].allSatisfy { FileManager.default.fileExists(atPath: state + "/\($0)/ready") } }
    }

    /// Connections the servers accepted so far: one per probe or API fetch.
    var runs: Int { count("tls/connections") + count("api/connections") }

    private func count(_ name: String) -> Int {
        (try? String(contentsOfFile: state + "/" + name, encoding: .utf8)).flatMap { Int($0) } ?? 0
    }

    static let api = "https://10.77.0.2:8444/captive"

    /// Sends an RA from v1 whose option 37 holds `uri` (the client's kernel passes it on).
    func announce(_ uri: String, in upstream: BenchNamespace) throws {
        try Bench.run(["ip", "netns", "exec", upstream.name, "python3", servers + "/send_ra.py", "v1", uri])
    }

    func stop() {
        for process in processes where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: state)
    }
}

/// Polls `condition` for up to 10 s (set-up only, never inside a measurement).
private func waitFor(_ what: String, _ condition: () -> Bool) throws {
    let deadline = ProcessFigures.monotonicNs + 10_000_000_000
    while !condition() {
        guard ProcessFigures.monotonicNs < deadline else { throw BenchError("timed out waiting for \(what)") }
        settle(0.02)
    }
}
