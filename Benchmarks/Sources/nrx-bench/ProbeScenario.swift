import BenchSupport
import CBenchNetlink
import Dispatch
import Foundation
import NetworkReachability
import Synchronization

// `nrx-bench probe [--changes N] [--checks N] [--idle-seconds S]`: the connectivity probe's costs
// (issue 12). In one namespace (the standard layout), with Tests/Servers/probe_server.py answering
// 204 on 10.77.0.1:8080 inside it:
// - flags latency, same run: two general-path monitors, one without a probe and one with, each
//   timing its flags callback after every default-route flap (each re-add makes the probed
//   monitor's path satisfied again, so it probes while the flags are delivered);
// - the cost of one probe: `checkConnectivity()` N times, wall time and process CPU per probe;
// - idle wake-ups: a prober with a 1 s interval left alone, probes sent and context switches of
//   the whole process per interval.
func probeScenario() throws {
    let changes = int("changes", 200)
    let checks = int("checks", 200)
    let idleSeconds = double("idle-seconds", 10)
    let namespace = try BenchNamespace(purpose: "probe")
    defer { namespace.delete() }
    let state = NSTemporaryDirectory() + "nrx-bench-probe-\(getpid())"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: state) }
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests/Servers/probe_server.py").path
    let server = Process()
    server.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
    server.arguments = ["netns", "exec", namespace.name, "python3", script, "--address", "10.77.0.1", "--port", "8080", "--state", state]
    try server.run()
    defer { server.terminate(); server.waitUntilExit() }
    while !FileManager.default.fileExists(atPath: state + "/ready") { settle(0.05) }
    func connections() -> Int { (try? String(contentsOfFile: state + "/connections", encoding: .utf8)).flatMap { Int($0) } ?? 0 }

    // Flags latency, with and without a probe, same run.
    let changer = try RouteChanger(namespace: namespace)
    let plain = PathMonitor(namespace: namespace.networkNamespace)
    let probed = PathMonitor(namespace: namespace.networkNamespace)
    probed.connectivityProbe = try ConnectivityProbe(url: "http://10.77.0.1:8080/generate_204", interval: .seconds(300))
    let stamps = [Stamp(), Stamp()]
    let arrived = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    for (index, monitor) in [plain, probed].enumerated() {
        let stamp = stamps[index], signal = arrived[index]
        monitor.setCallback { _ in
            stamp.value.store(ProcessFigures.monotonicNs, ordering: .releasing)
            signal.signal()
        }
        monitor.start(queue: DispatchQueue(label: "nrx-bench.probe.\(index)"))
    }
    arrived.forEach { $0.wait() }
    settle(0.5)
    var latency = [Samples(), Samples()]
    let connectionsBefore = connections()
    for i in 0..<changes {
        let t0 = ProcessFigures.monotonicNs
        try changer.defaultRoute(add: i % 2 == 1)
        for index in 0..<2 where arrived[index].wait(timeout: .now() + 2) == .success {
            latency[index].add(us(stamps[index].value.load(ordering: .acquiring) - t0))
        }
        settle(0.02)
    }
    let probesDuringFlaps = connections() - connectionsBefore
    plain.cancel()
    probed.cancel()

    // The cost of one probe, on demand.
    let checker = PathMonitor(namespace: namespace.networkNamespace)
    checker.connectivityProbe = try ConnectivityProbe(url: "http://10.77.0.1:8080/check", interval: .seconds(300))
    var wall = Samples()
    let cpu0 = ProcessFigures.cpuNs
    for _ in 0..<checks {
        let done = DispatchSemaphore(value: 0)
        let t0 = ProcessFigures.monotonicNs
        Task {
            _ = await checker.checkConnectivity()
            done.signal()
        }
        done.wait()
        wall.add(us(ProcessFigures.monotonicNs - t0))
    }
    let cpuPerProbe = us(ProcessFigures.cpuNs - cpu0) / Double(checks)

    // Idle wake-ups with a probe of 1 s interval.
    let idle = PathMonitor(namespace: namespace.networkNamespace)
    idle.connectivityProbe = try ConnectivityProbe(url: "http://10.77.0.1:8080/idle", timeout: .seconds(1), interval: .seconds(1))
    idle.pathUpdateHandler = { _ in }
    idle.start(queue: DispatchQueue(label: "nrx-bench.probe.idle"))
    settle(1)
    let idleConnections0 = connections()
    let switches0 = contextSwitches()
    settle(idleSeconds)
    let idleProbes = connections() - idleConnections0
    let idleSwitches = contextSwitches() - switches0
    idle.cancel()

    emitRecord([
        "scenario": "probe",
        "flags_without_probe_us": latency[0].json(digits: 1),
        "flags_with_probe_us": latency[1].json(digits: 1),
        "route_changes": changes,
        "probes_during_flaps": probesDuringFlaps,
        "probe_wall_us": wall.json(digits: 1),
        "probe_cpu_us": round1(cpuPerProbe),
        "idle_seconds": idleSeconds,
        "idle_probes": idleProbes,
        "idle_context_switches": idleSwitches,
    ])
}

/// Voluntary and involuntary context switches of this process so far, its ended threads included
/// (each `setns` thread of a probe is one): `getrusage(RUSAGE_SELF)`.
private func contextSwitches() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_nvcsw + usage.ru_nivcsw
}

/// When a monitor's flags callback last ran (the probe scenarios').
final class Stamp: Sendable {
    let value = Atomic<Int64>(0)
}
