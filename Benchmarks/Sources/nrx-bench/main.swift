// nrx-bench: whole-process scenarios of NetworkReachability's performance (issue 7).
//
// Each scenario prints one JSON object per line on stdout (progress on stderr); scripts/bench
// collects them into its table. Namespaces are named NRX_BENCH_PREFIX* (default
// nrx-bench-PID-*) and deleted on every exit path. Only the public API is used.
//
//   nrx-bench flags [--iterations N]                       flags() scheduled / unscheduled, raw lookup floor
//   nrx-bench first-callback [--rounds N]                  PathMonitor() + setDispatchQueue -> first callback
//   nrx-bench memory --monitors N [--same]                 RSS and heap above an empty process
//   nrx-bench reeval --monitors N [--rounds R] [--same]    route change -> every monitor's callback
//   nrx-bench routes [--routes 100000] [--rate 1000] [--seconds 5]   100k-route namespace: memory, churn CPU
//   nrx-bench quiet [--rate 1000] [--pairs 200] [--seconds 10]       churn that moves no target
//   nrx-bench flap --kind link|route|addr [--changes N] [--target ADDR] [--gap-ms G]
//                                                          the harness's flaps, in process: library-only latency and CPU
//   nrx-bench status [--iterations N]                      ReachabilityStatus(flags:) throughput
//   nrx-bench drive --ns NAME [--rate R] [--pairs P] [--seconds S]   (child) the churn generator
import BenchSupport
import CBenchNetlink
import Dispatch
import Foundation
import NetworkReachability
import Synchronization

// MARK: - Arguments

let arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.first ?? "help"
let options: [String: String] = {
    var options: [String: String] = [:]
    var index = 1
    while index < arguments.count {
        let key = arguments[index]
        guard key.hasPrefix("--") else { index += 1; continue }
        if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") {
            options[String(key.dropFirst(2))] = arguments[index + 1]
            index += 2
        } else {
            options[String(key.dropFirst(2))] = "1"
            index += 1
        }
    }
    return options
}()

func int(_ key: String, _ fallback: Int) -> Int { options[key].flatMap { Int($0) } ?? fallback }
func double(_ key: String, _ fallback: Double) -> Double { options[key].flatMap { Double($0) } ?? fallback }
func flag(_ key: String) -> Bool { options[key] != nil }

func round1(_ x: Double) -> Double { (x * 10).rounded() / 10 }
func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
func us(_ ns: Int64) -> Double { Double(ns) / 1000 }

/// Sleeps, letting the engine and the callback queue finish what is under way.
func settle(_ seconds: Double) { usleep(UInt32(seconds * 1_000_000)) }

/// Waits until this process uses (almost) no CPU for `quiet` seconds: the engine digested a burst.
func waitForQuiet(quiet: Double = 0.3, threshold: Double = 0.02, limit: Double = 60) -> Double {
    let start = ProcessFigures.monotonicNs
    var last = ProcessFigures.cpuNs
    while Double(ProcessFigures.monotonicNs - start) / 1e9 < limit {
        settle(quiet)
        let now = ProcessFigures.cpuNs
        if Double(now - last) / 1e9 < threshold * quiet { break }
        last = now
    }
    return Double(ProcessFigures.monotonicNs - start) / 1e9
}

/// A counter of flags and path callbacks of single monitors.
final class CallbackCounter: @unchecked Sendable {
    let flags = Atomic<Int>(0)
    let paths = Atomic<Int>(0)
    func reset() { flags.store(0, ordering: .relaxed); paths.store(0, ordering: .relaxed) }
    func watch(_ monitor: PathMonitor) {
        monitor.setCallback { [self] _ in flags.add(1, ordering: .relaxed) }
        monitor.pathUpdateHandler = { [self] _ in paths.add(1, ordering: .relaxed) }
    }
}

/// Runs this executable again as a child (the churn generator), so its CPU is not ours.
func spawnSelf(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = arguments
    process.standardOutput = FileHandle.standardError
    try process.run()
    return process
}

// MARK: - flags()

/// `flags()` on a scheduled address monitor (a read of the engine's last evaluation) and on an
/// unscheduled one (a fresh evaluation), beside one raw RTM_GETROUTE round trip.
func flagsScenario() throws {
    let iterations = int("iterations", 20000)
    let queue = DispatchQueue(label: "nrx-bench.flags")
    let scheduled = try PathMonitor(address: "10.1.2.3")
    let first = DispatchSemaphore(value: 0)
    scheduled.setCallback { _ in first.signal() }
    scheduled.setDispatchQueue(queue)
    first.wait()
    scheduled.setCallback(nil)
    let unscheduled = try PathMonitor(address: "10.1.2.4")

    func sample(_ count: Int, _ body: () throws -> Void) rethrows -> Samples {
        for _ in 0..<min(count / 10, 1000) { try body() }  // warm-up
        var samples = Samples()
        for _ in 0..<count {
            let t0 = ProcessFigures.monotonicNs
            try body()
            samples.add(us(ProcessFigures.monotonicNs - t0))
        }
        return samples
    }

    let scheduledSamples = try sample(iterations) { _ = try scheduled.flags() }
    let counter = SyscallCounter()
    let unscheduledCount = max(iterations / 4, 100)
    let unscheduledSamples = try sample(unscheduledCount) { _ = try unscheduled.flags() }
    let syscalls = counter?.stop() ?? [:]
    let fd = nrxb_rtnl_open_in("/proc/self/ns/net")
    guard fd >= 0 else { throw BenchError("rtnetlink socket: errno \(-fd)") }
    defer { close(fd) }
    let destination = Bench.ipv4("10.1.2.4")
    let rawSamples = sample(unscheduledCount) { _ = nrxb_route_get4(fd, destination) }
    // sendmsg counted over warm-up + measured calls
    let calls = unscheduledCount + min(unscheduledCount / 10, 1000)
    var record: [String: Any] = [
        "scenario": "flags",
        "scheduled_us": scheduledSamples.json(digits: 3),
        "unscheduled_us": unscheduledSamples.json(digits: 2),
        "raw_lookup_us": rawSamples.json(digits: 2),
    ]
    if let sends = syscalls["syscalls:sys_enter_sendmsg"] {
        record["unscheduled_sendmsg_per_call"] = round3(Double(sends) / Double(calls))
        record["unscheduled_recvmsg_per_call"] = round3(Double(syscalls["syscalls:sys_enter_recvmsg"] ?? 0) / Double(calls))
    }
    emitRecord(record)
    withExtendedLifetime((scheduled, unscheduled)) {}
}

// MARK: - First callback

/// From `PathMonitor()` to its first callback after `setDispatchQueue`: cold (the monitor opens the
/// namespace's engine: sockets, dumps, sysfs) and warm (another monitor keeps the engine open).
func firstCallbackScenario() throws {
    let rounds = int("rounds", 50)
    let queue = DispatchQueue(label: "nrx-bench.first")
    func measure(_ namespace: NetworkNamespace, warm: Bool) -> Samples {
        let holder: PathMonitor? = warm ? PathMonitor(namespace: namespace) : nil
        var samples = Samples()
        for _ in 0..<rounds {
            let done = DispatchSemaphore(value: 0)
            let t0 = ProcessFigures.monotonicNs
            let monitor = PathMonitor(namespace: namespace)
            monitor.pathUpdateHandler = { _ in done.signal() }
            monitor.setDispatchQueue(queue)
            done.wait()
            samples.add(us(ProcessFigures.monotonicNs - t0))
            monitor.cancel()
            // Cold: let the last monitor's engine go before the next round.
            if !warm { settle(0.03) }
        }
        withExtendedLifetime(holder) {}
        return samples
    }
    var record: [String: Any] = ["scenario": "first-callback", "rounds": rounds]
    record["current_cold_us"] = measure(.current, warm: false).json()
    record["current_warm_us"] = measure(.current, warm: true).json()
    if Bench.isRoot {
        let namespace = try BenchNamespace(purpose: "first")
        record["netns_cold_us"] = measure(namespace.networkNamespace, warm: false).json()
        record["netns_warm_us"] = measure(namespace.networkNamespace, warm: true).json()
        namespace.delete()
    } else {
        note("not root: skipping the first-callback rounds in a fresh namespace")
    }
    emitRecord(record)
}

// MARK: - Memory

/// RSS and heap of N scheduled monitors of distinct address targets (10.(i>>8).(i&255).1) in the
/// process's own namespace, above the same process before its first monitor.
func memoryScenario() throws {
    let count = int("monitors", 10000)
    let same = flag("same")
    ProcessFigures.trimHeap()
    settle(0.2)
    let emptyRSS = ProcessFigures.rssKiB
    let emptyHeap = ProcessFigures.heapBytes

    let one = try PathMonitor(address: "10.255.255.1")
    let oneQueue = DispatchQueue(label: "nrx-bench.one")
    let oneDone = DispatchSemaphore(value: 0)
    one.setCallback { _ in oneDone.signal() }
    one.setDispatchQueue(oneQueue)
    oneDone.wait()
    settle(0.2)
    ProcessFigures.trimHeap()
    let engineRSS = ProcessFigures.rssKiB
    let engineHeap = ProcessFigures.heapBytes

    let addresses = (0..<count).map { same ? "10.1.1.1" : Bench.distinctTarget($0) }
    let t0 = ProcessFigures.monotonicNs
    let fleet = try MonitorFleet(addresses: addresses)
    let t1 = ProcessFigures.monotonicNs
    ProcessFigures.trimHeap()
    let unscheduledRSS = ProcessFigures.rssKiB
    let unscheduledHeap = ProcessFigures.heapBytes
    fleet.arm(expectReachable: nil)
    let t2 = ProcessFigures.monotonicNs
    fleet.schedule()
    guard fleet.wait(timeoutSeconds: 120) != nil else { throw BenchError("first callbacks of \(count) monitors did not all arrive") }
    let t3 = ProcessFigures.monotonicNs
    settle(0.3)
    ProcessFigures.trimHeap()
    let scheduledRSS = ProcessFigures.rssKiB
    let scheduledHeap = ProcessFigures.heapBytes
    let peak = ProcessFigures.peakRSSKiB
    emitRecord([
        "scenario": "memory", "monitors": count, "same_destination": same,
        "empty_rss_kib": emptyRSS, "one_monitor_rss_kib": engineRSS,
        "unscheduled_rss_kib": unscheduledRSS, "scheduled_rss_kib": scheduledRSS, "peak_rss_kib": peak,
        "rss_above_empty_mib": round3(Double(scheduledRSS - emptyRSS) / 1024),
        "heap_above_empty_mib": round3(Double(scheduledHeap - emptyHeap) / 1048576),
        "heap_bytes_per_unscheduled_monitor": Int(Double(unscheduledHeap - engineHeap) / Double(count)),
        "heap_bytes_per_scheduled_monitor": Int(Double(scheduledHeap - engineHeap) / Double(count)),
        "rss_bytes_per_scheduled_monitor": Int(Double(scheduledRSS - engineRSS) * 1024 / Double(count)),
        "create_ms": round1(Double(t1 - t0) / 1e6), "schedule_ms": round1(Double(t3 - t2) / 1e6),
        "threads": ProcessFigures.threads,
    ])
    withExtendedLifetime((one, fleet)) {}
}

// MARK: - Re-evaluation after one change

/// N scheduled monitors in a namespace; each round deletes or restores the default route, which
/// moves every target, and times the change until the last monitor's callback ran.
func reevalScenario() throws {
    let count = int("monitors", 1000)
    let rounds = int("rounds", 20)
    let same = flag("same")
    let namespace = try BenchNamespace(purpose: "reeval")
    defer { namespace.delete() }
    let changer = try RouteChanger(namespace: namespace)
    let addresses = (0..<count).map { same ? "10.1.1.1" : Bench.distinctTarget($0) }
    let fleet = try MonitorFleet(addresses: addresses, namespace: namespace.networkNamespace)
    fleet.arm(expectReachable: true)
    fleet.schedule()
    guard fleet.wait(timeoutSeconds: 120) != nil else { throw BenchError("first callbacks did not all arrive") }
    settle(0.2)

    var last = Samples(), first = Samples(), cpu = Samples()
    var extra = 0
    let counter = SyscallCounter()
    let cpuStart = ProcessFigures.workerCpuNs
    for round in 0..<rounds {
        let removing = round % 2 == 0
        fleet.arm(expectReachable: !removing)
        let c0 = ProcessFigures.workerCpuNs
        let t0 = ProcessFigures.monotonicNs
        try changer.defaultRoute(add: !removing)
        guard let (firstNs, lastNs) = fleet.wait(timeoutSeconds: 30) else {
            throw BenchError("round \(round): \(fleet.matchingCallbacks)/\(count) callbacks after 30 s\(namespace.vanishNote)")
        }
        let c1 = ProcessFigures.workerCpuNs
        first.add(us(firstNs - t0))
        last.add(us(lastNs - t0))
        cpu.add(us(c1 - c0))
        settle(0.05)
        extra += fleet.allCallbacks - fleet.matchingCallbacks
    }
    let cpuTotal = ProcessFigures.workerCpuNs - cpuStart
    let syscalls = counter?.stop()
    var record: [String: Any] = [
        "scenario": "reeval", "monitors": count, "rounds": rounds, "same_destination": same,
        "all_callbacks_us": last.json(), "first_callback_us": first.json(),
        "cpu_us_per_change": cpu.json(), "cpu_us_per_change_incl_settle": round1(us(cpuTotal) / Double(rounds)),
        "unexpected_callbacks": extra,
    ]
    if let sends = syscalls?["syscalls:sys_enter_sendmsg"] {
        // Each round: the engine's lookups (sendmsg) plus our route change (sendto).
        record["lookups_per_change"] = round1(Double(sends) / Double(rounds))
    }
    if !same {
        // Issue 13's bound: the raw cost of these monitors' lookups, in this run and namespace:
        // every destination asked once, one RTM_GETROUTE round trip after another.
        let fd = nrxb_rtnl_open_in(namespace.path)
        guard fd >= 0 else { throw BenchError("rtnetlink socket in \(namespace.name): errno \(-fd)") }
        defer { close(fd) }
        let destinations = addresses.map(Bench.ipv4)
        var raw = Samples()
        for _ in 0..<max(rounds / 2, 3) {
            let t0 = ProcessFigures.monotonicNs
            for destination in destinations { _ = nrxb_route_get4(fd, destination) }
            raw.add(us(ProcessFigures.monotonicNs - t0))
        }
        record["raw_lookups_of_all_targets_us"] = raw.json()
        record["all_callbacks_p50_over_raw_lookups_p50"] = round3(last.p50 / raw.p50)
    }
    emitRecord(record)
    withExtendedLifetime(fleet) {}
}

// MARK: - 100k routes

/// A namespace with a few monitors, then 100k routes added with `ip -batch`: RSS before and
/// after, CPU to digest the burst; then route churn there (`--rate` changes a second for
/// `--seconds`, in 198.18.0.0/16, which moves no target): CPU per change against the lookups it
/// triggered, priced at the raw RTM_GETROUTE round trip measured in the same namespace.
func routesScenario() throws {
    let routeCount = int("routes", 100_000)
    let rate = int("rate", 1000)
    let seconds = double("seconds", 5)
    let namespace = try BenchNamespace(purpose: "routes")
    defer { namespace.delete() }
    let counter = CallbackCounter()
    let general = PathMonitor(namespace: namespace.networkNamespace)
    counter.watch(general)
    let fleet = try MonitorFleet(addresses: ["10.1.1.1", "100.64.0.5", "10.77.0.2"], namespace: namespace.networkNamespace)
    fleet.arm(expectReachable: nil)
    let queue = DispatchQueue(label: "nrx-bench.general")
    general.setDispatchQueue(queue)
    fleet.schedule()
    guard fleet.wait(timeoutSeconds: 30) != nil else { throw BenchError("first callbacks did not arrive") }
    let probe = try PathMonitor(address: "10.9.9.9", namespace: namespace.networkNamespace)
    // The batch file is written before the first reading, in its own scope: its text (some MB)
    // must not count as the engine's.
    let file = "/tmp/nrx-bench-routes-\(getpid()).batch"
    try writeRouteBatch(file, count: routeCount)
    defer { unlink(file) }
    settle(0.3)
    ProcessFigures.trimHeap()
    let rssBefore = ProcessFigures.rssKiB
    let heapBefore = ProcessFigures.heapBytes
    counter.reset()
    fleet.arm(expectReachable: nil, count: Int.max)

    let loadCounter = SyscallCounter()
    let cpu0 = ProcessFigures.cpuNs
    let t0 = ProcessFigures.monotonicNs
    try namespace.batch(file: file)
    let tBatch = ProcessFigures.monotonicNs
    _ = try probe.flags()  // drains what is queued, on the engine's queue
    _ = waitForQuiet()
    let cpu1 = ProcessFigures.cpuNs
    let loadSyscalls = loadCounter?.stop()
    ProcessFigures.trimHeap()
    let rssAfter = ProcessFigures.rssKiB
    let heapAfter = ProcessFigures.heapBytes
    let loadCallbacks = (counter.flags.load(ordering: .relaxed), counter.paths.load(ordering: .relaxed), fleet.allCallbacks)
    let routesInKernel = (try? Bench.run(["sh", "-c", "ip -n \(namespace.name) -4 route show | wc -l"]))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"

    // Churn in the full table.
    counter.reset()
    fleet.arm(expectReachable: nil, count: Int.max)
    let syscallCounter = SyscallCounter()
    let churnCPU0 = ProcessFigures.cpuNs
    let churnT0 = ProcessFigures.monotonicNs
    let child = try spawnSelf(["drive", "--ns", namespace.name, "--rate", "\(rate)", "--pairs", "0", "--seconds", "\(seconds)"])
    child.waitUntilExit()
    _ = try probe.flags()
    settle(0.2)
    let churnCPU1 = ProcessFigures.cpuNs
    let churnT1 = ProcessFigures.monotonicNs
    let syscalls = syscallCounter?.stop()
    let changes = Int(Double(rate) * seconds)
    let churnCallbacks = (counter.flags.load(ordering: .relaxed), counter.paths.load(ordering: .relaxed), fleet.allCallbacks)

    // The price of one lookup here: the kernel's round trip, and the library's unscheduled flags().
    let fd = nrxb_rtnl_open_in(namespace.path)
    guard fd >= 0 else { throw BenchError("rtnetlink socket: errno \(-fd)") }
    defer { close(fd) }
    var raw = Samples(), library = Samples()
    let destination = Bench.ipv4("8.8.8.8")
    for _ in 0..<3000 {
        let a = ProcessFigures.monotonicNs
        _ = nrxb_route_get4(fd, destination)
        raw.add(us(ProcessFigures.monotonicNs - a))
    }
    for _ in 0..<1000 {
        let a = ProcessFigures.monotonicNs
        _ = try probe.flags()
        library.add(us(ProcessFigures.monotonicNs - a))
    }

    var record: [String: Any] = [
        "scenario": "routes", "routes": routeCount, "routes_in_kernel": routesInKernel,
        "rss_before_kib": rssBefore, "rss_after_kib": rssAfter,
        "rss_added_mib": round3(Double(rssAfter - rssBefore) / 1024),
        "heap_added_mib": round3(Double(heapAfter - heapBefore) / 1048576),
        "batch_seconds": round3(Double(tBatch - t0) / 1e9),
        "digest_cpu_ms": round1(Double(cpu1 - cpu0) / 1e6),
        "load_callbacks": ["flags": loadCallbacks.0, "paths": loadCallbacks.1, "address_flags": loadCallbacks.2],
        "churn_changes": changes, "churn_rate": rate,
        "churn_cpu_us_per_change": round1(us(churnCPU1 - churnCPU0) / Double(changes)),
        "churn_cpu_percent_of_core": round1(Double(churnCPU1 - churnCPU0) / Double(churnT1 - churnT0) * 100),
        "churn_callbacks": ["flags": churnCallbacks.0, "paths": churnCallbacks.1, "address_flags": churnCallbacks.2],
        "raw_lookup_us": raw.json(digits: 2), "unscheduled_flags_us": library.json(digits: 2),
        "monitors": ["general(*)", "10.1.1.1", "100.64.0.5", "10.77.0.2"],
    ]
    if let sends = loadSyscalls?["syscalls:sys_enter_sendmsg"] {
        // Every pass re-evaluates the four targets (~17 lookups): passes = lookups / 17.
        record["load_lookups"] = sends
        record["load_recvmsg"] = loadSyscalls?["syscalls:sys_enter_recvmsg"] ?? 0
    }
    if let sends = syscalls?["syscalls:sys_enter_sendmsg"] {
        let lookups = Double(sends) / Double(changes)
        record["lookups_per_change"] = round3(lookups)
        record["lookup_cost_us_per_change"] = round1(lookups * raw.p50)
    }
    emitRecord(record)
    withExtendedLifetime((general, fleet, probe)) {}
}

/// `route add 100.64.x.y/32 via 10.77.0.2` lines for `ip -batch`.
func writeRouteBatch(_ path: String, count: Int) throws {
    var text = ""
    text.reserveCapacity(count * 44)
    for k in 0..<count {
        text += "route add 100.\(64 + (k >> 16)).\((k >> 8) & 255).\(k & 255)/32 via 10.77.0.2\n"
    }
    try text.write(toFile: path, atomically: false, encoding: .utf8)
}

// MARK: - Churn that moves no target

/// Container churn (veth pairs made and removed) together with route changes that move no
/// target, in a namespace where the general path and ten address targets are watched.
func quietScenario() throws {
    let rate = int("rate", 1000)
    let pairs = int("pairs", 200)
    let seconds = double("seconds", 10)
    let namespace = try BenchNamespace(purpose: "quiet")
    defer { namespace.delete() }
    let counter = CallbackCounter()
    let general = PathMonitor(namespace: namespace.networkNamespace)
    counter.watch(general)
    let addresses = (0..<10).map { Bench.distinctTarget($0 * 97) }
    let fleet = try MonitorFleet(addresses: addresses, namespace: namespace.networkNamespace)
    let pathCount = Atomic<Int>(0)
    for monitor in fleet.monitors {
        monitor.pathUpdateHandler = { _ in pathCount.add(1, ordering: .relaxed) }
    }
    fleet.arm(expectReachable: nil)
    general.setDispatchQueue(DispatchQueue(label: "nrx-bench.general"))
    fleet.schedule()
    guard fleet.wait(timeoutSeconds: 30) != nil else { throw BenchError("first callbacks did not arrive") }
    settle(0.5)
    counter.reset()
    pathCount.store(0, ordering: .relaxed)
    fleet.arm(expectReachable: nil, count: Int.max)
    let syscallCounter = SyscallCounter()
    let cpu0 = ProcessFigures.cpuNs
    let t0 = ProcessFigures.monotonicNs
    let child = try spawnSelf(["drive", "--ns", namespace.name, "--rate", "\(rate)", "--pairs", "\(pairs)", "--seconds", "\(seconds)"])
    child.waitUntilExit()
    settle(0.5)
    let cpu1 = ProcessFigures.cpuNs
    let t1 = ProcessFigures.monotonicNs
    let syscalls = syscallCounter?.stop()
    let changes = Int(Double(rate) * seconds)
    var record: [String: Any] = [
        "scenario": "quiet", "route_changes": changes, "route_rate": rate, "veth_pairs": pairs, "seconds": seconds,
        "cpu_percent_of_core": round1(Double(cpu1 - cpu0) / Double(t1 - t0) * 100),
        "cpu_ms": round1(Double(cpu1 - cpu0) / 1e6),
        "general_flags_callbacks": counter.flags.load(ordering: .relaxed),
        "general_path_callbacks": counter.paths.load(ordering: .relaxed),
        "address_flags_callbacks": fleet.allCallbacks,
        "address_path_callbacks": pathCount.load(ordering: .relaxed),
        "monitors": 11,
    ]
    if let sends = syscalls?["syscalls:sys_enter_sendmsg"] {
        record["lookups"] = sends
        record["lookups_per_route_change"] = round3(Double(sends) / Double(changes))
    }
    emitRecord(record)
    withExtendedLifetime((general, fleet)) {}
}

// MARK: - The harness's flaps, in process

/// The shared harness's change kinds against one scheduled monitor, sent from this process
/// (raw rtnetlink, main thread) so that the library's own cost shows without the command's
/// JSON printing: change -> pathUpdateHandler latency, and the CPU of every thread but the
/// sender's per change. `--target` (an address) instead of the general path.
func flapScenario() throws {
    let kind = options["kind"] ?? "route"
    let changes = int("changes", 200)
    let gap = double("gap-ms", 20) / 1000
    var setup = BenchNamespace.standardSetup
    if kind == "addr" { setup.append("addr add 10.77.9.1/24 dev v0") }
    // --ns NAME: a namespace made beforehand with the standard setup (for valgrind, under which
    // this process cannot start `ip`); --no-perf: no lookup count (perf is a child process too).
    let namespace = try options["ns"].map { BenchNamespace(existing: $0) } ?? BenchNamespace(purpose: "flap", setup: setup)
    defer { namespace.delete() }
    let changer = try RouteChanger(namespace: namespace)
    let v0 = try namespace.ifindex(of: "v0")
    let monitor: PathMonitor
    if let target = options["target"] {
        monitor = try PathMonitor(address: target, namespace: namespace.networkNamespace)
    } else {
        monitor = PathMonitor(namespace: namespace.networkNamespace)
    }
    let arrived = DispatchSemaphore(value: 0)
    let stamp = Atomic<Int64>(0)
    let count = Atomic<Int>(0)
    monitor.pathUpdateHandler = { _ in
        stamp.store(ProcessFigures.monotonicNs, ordering: .releasing)
        count.add(1, ordering: .relaxed)
        arrived.signal()
    }
    monitor.start(queue: DispatchQueue(label: "nrx-bench.flap"))
    arrived.wait()
    settle(0.3)
    while arrived.wait(timeout: .now()) == .success {}
    count.store(0, ordering: .relaxed)
    var latency = Samples()
    var missed = 0
    let counter = flag("no-perf") ? nil : SyscallCounter()
    let cpu0 = ProcessFigures.workerCpuNs
    for i in 0..<changes {
        let undo = i % 2 == 1
        let t0 = ProcessFigures.monotonicNs
        switch kind {
        case "link":
            try changer.link(v0, up: undo)
            // As the harness: IPv4 routes of a downed link are flushed without RTM_DELROUTE.
            if undo { try changer.defaultRoute(add: true) }
        case "addr":
            try changer.address(add: undo, "10.77.9.1", 24, ifindex: v0)
        default:
            try changer.defaultRoute(add: undo)
        }
        if arrived.wait(timeout: .now() + 1) == .success {
            latency.add(us(stamp.load(ordering: .acquiring) - t0))
        } else {
            missed += 1
        }
        settle(gap)
        while arrived.wait(timeout: .now()) == .success {}  // extra notifications of this change
    }
    let cpu1 = ProcessFigures.workerCpuNs
    let syscalls = counter?.stop()
    var record: [String: Any] = [
        "scenario": "flap", "kind": kind, "target": options["target"] ?? "*", "changes": changes,
        "latency_us": latency.json(), "missed": missed, "notifications": count.load(ordering: .relaxed),
        "cpu_us_per_change": round1(us(cpu1 - cpu0) / Double(changes)),
    ]
    if let sends = syscalls?["syscalls:sys_enter_sendmsg"] {
        record["lookups_per_change"] = round1(Double(sends) / Double(changes))
    }
    emitRecord(record)
    withExtendedLifetime(monitor) {}
}

// MARK: - Hold monitors (for external tools)

/// Holds a general-path monitor and three address monitors, scheduled, in an existing namespace
/// for `--seconds`, printing RSS and heap at the start and the end: for heap profilers
/// (valgrind --tool=massif cannot start `ip` itself) while routes are changed from outside.
func holdScenario() throws {
    guard let name = options["ns"] else { throw BenchError("hold needs --ns NAME") }
    let seconds = double("seconds", 30)
    let namespace = BenchNamespace(existing: name)
    let general = PathMonitor(namespace: namespace.networkNamespace)
    let counter = CallbackCounter()
    counter.watch(general)
    general.setDispatchQueue(DispatchQueue(label: "nrx-bench.hold"))
    let fleet = try MonitorFleet(addresses: ["10.1.1.1", "100.64.0.5", "10.77.0.2"], namespace: namespace.networkNamespace)
    fleet.arm(expectReachable: nil, count: Int.max)
    fleet.schedule()
    settle(0.5)
    ProcessFigures.trimHeap()
    let rss0 = ProcessFigures.rssKiB, heap0 = ProcessFigures.heapBytes
    note("hold: ready (rss \(rss0) KiB)")
    settle(seconds)
    ProcessFigures.trimHeap()
    emitRecord(["scenario": "hold", "rss_before_kib": rss0, "rss_after_kib": ProcessFigures.rssKiB,
                "heap_before": heap0, "heap_after": ProcessFigures.heapBytes,
                "general_flags_callbacks": counter.flags.load(ordering: .relaxed)])
    withExtendedLifetime((general, fleet)) {}
}

// MARK: - Evaluator throughput

/// `ReachabilityStatus(flags:)`, the evaluator's pure last step, over every combination of the
/// flags it reads.
func statusScenario() {
    let iterations = int("iterations", 50_000_000)
    let bits: [UInt32] = [1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5, 1 << 16, 1 << 17, 1 << 18]
    let combinations: [ReachabilityFlags] = (0..<(1 << bits.count)).map { mask in
        var raw: UInt32 = 0
        for (i, bit) in bits.enumerated() where mask & (1 << i) != 0 { raw |= bit }
        return ReachabilityFlags(rawValue: raw)
    }
    var sink = 0
    let t0 = ProcessFigures.monotonicNs
    for i in 0..<iterations {
        sink &+= ReachabilityStatus(flags: combinations[i & (combinations.count - 1)]).rawValue
    }
    let t1 = ProcessFigures.monotonicNs
    emitRecord([
        "scenario": "status", "iterations": iterations, "sink": sink,
        "ns_per_call": round3(Double(t1 - t0) / Double(iterations)),
        "million_per_second": round1(Double(iterations) / (Double(t1 - t0) / 1e9) / 1e6),
    ])
}

// MARK: - The churn generator (a child process)

/// Route changes at a fixed rate (add, then delete, of /32s in 198.18.0.0/16 via 10.77.0.2),
/// and, beside them, `--pairs` veth pairs made (both ends up) and removed, spread over the window.
func driveScenario() throws {
    guard let name = options["ns"] else { throw BenchError("drive needs --ns NAME") }
    let rate = int("rate", 1000)
    let pairs = int("pairs", 0)
    let seconds = double("seconds", 5)
    let path = "/run/netns/\(name)"
    var vethProcess: Process?
    var vethInput: FileHandle?
    if pairs > 0 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ip", "-n", name, "-force", "-batch", "-"]
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        vethProcess = process
        vethInput = pipe.fileHandleForWriting
    }
    let start = ProcessFigures.monotonicNs + 10_000_000
    let vethThread: Thread? = vethInput.map { input in
        let thread = Thread {
            let interval = seconds * 1e9 / Double(max(pairs, 1))
            for k in 0..<pairs {
                nrxb_sleep_until_ns(start + Int64(Double(k) * interval))
                input.write(Data("link add nrxc\(k) type veth peer name nrxc\(k)p\nlink set nrxc\(k) up\nlink set nrxc\(k)p up\n".utf8))
                nrxb_sleep_until_ns(start + Int64((Double(k) + 0.5) * interval))
                input.write(Data("link del nrxc\(k)\n".utf8))
            }
            try? input.close()
        }
        thread.start()
        return thread
    }
    var errors = 0
    var late = 0
    if rate > 0 {
        let fd = nrxb_rtnl_open_in(path)
        guard fd >= 0 else { throw BenchError("rtnetlink socket in \(name): errno \(-fd)") }
        let gateway = Bench.ipv4("10.77.0.2")
        let period = 1e9 / Double(rate)
        let total = Int(Double(rate) * seconds)
        for i in 0..<total {
            let due = start + Int64(Double(i) * period)
            if ProcessFigures.monotonicNs > due + 1_000_000 { late += 1 }
            nrxb_sleep_until_ns(due)
            let k = (i / 2) % 65536
            let destination = UInt32(198 << 24 | 18 << 16 | k).bigEndian
            if nrxb_route4(fd, i % 2 == 0 ? 1 : 0, destination, 32, gateway, 0) != 0 { errors += 1 }
        }
        close(fd)
    } else {
        nrxb_sleep_until_ns(start + Int64(seconds * 1e9))
    }
    while vethThread != nil && vethThread?.isFinished == false { usleep(10_000) }
    vethProcess?.waitUntilExit()
    note("drive: \(Int(Double(rate) * seconds)) route changes (\(errors) refused, \(late) more than 1 ms late), \(pairs) veth pairs")
}

// MARK: - Main

do {
    switch command {
    case "flags": try flagsScenario()
    case "first-callback": try firstCallbackScenario()
    case "memory": try memoryScenario()
    case "reeval": try reevalScenario()
    case "routes": try routesScenario()
    case "quiet": try quietScenario()
    case "flap": try flapScenario()
    case "hold": try holdScenario()
    case "status": statusScenario()
    case "drive": try driveScenario()
    case "probe": try probeScenario()
    case "probe-flags": try probeFlagsScenario()
    default:
        note("usage: nrx-bench flags|first-callback|memory|reeval|routes|quiet|flap|status|drive|probe|probe-flags [--options]; see the header of main.swift")
        exit(2)
    }
} catch {
    note("\(command) failed: \(error)")
    _ = nrxb_delete_registered_netns()
    exit(1)
}
exit(0)
