// The ordo-one suite of NetworkReachability (issue 7): `cd Benchmarks && swift package benchmark`.
//
// Public API only. The benchmarks that change routes make a namespace named nrx-bench-* (root
// needed; skipped with a message otherwise) and delete it in their teardown, at exit and on a
// fatal signal. Whole-process figures (RSS above an empty process, 100k routes, churn CPU) are
// in `nrx-bench` (Sources/nrx-bench), which scripts/bench runs beside this suite.
import Benchmark
import BenchSupport
import CBenchNetlink
import Dispatch
import Foundation
import NetworkReachability

/// State a benchmark's setup makes and its teardown drops (each benchmark runs in its own process).
final class SuiteState: @unchecked Sendable {
    nonisolated(unsafe) static var current: SuiteState?

    var monitors: [PathMonitor] = []
    var fleet: MonitorFleet?
    var namespace: BenchNamespace?
    var changer: RouteChanger?
    var round = 0
    let queue = DispatchQueue(label: "nrx-bench.suite")

    static func drop() {
        current?.fleet?.unschedule()
        current?.namespace?.delete()
        current = nil
    }
}

/// A scheduled address monitor whose first callback has run.
func scheduledMonitor(_ address: String, queue: DispatchQueue) throws -> PathMonitor {
    let monitor = try PathMonitor(address: address)
    let first = DispatchSemaphore(value: 0)
    monitor.setCallback { _ in first.signal() }
    monitor.setDispatchQueue(queue)
    first.wait()
    monitor.setCallback(nil)
    return monitor
}

/// A namespace with N scheduled monitors of distinct (or one shared) address targets, all
/// reachable through the default route, which each iteration deletes or restores.
func reevaluationSetup(count: Int, sameDestination: Bool) throws {
    let state = SuiteState()
    SuiteState.current = state
    let namespace = try BenchNamespace(purpose: "suite-reeval")
    state.namespace = namespace
    state.changer = try RouteChanger(namespace: namespace)
    let addresses = (0..<count).map { sameDestination ? "10.1.1.1" : Bench.distinctTarget($0) }
    let fleet = try MonitorFleet(addresses: addresses, namespace: namespace.networkNamespace)
    fleet.arm(expectReachable: true)
    fleet.schedule()
    guard fleet.wait(timeoutSeconds: 120) != nil else { throw BenchError("first callbacks did not all arrive") }
    state.fleet = fleet
}

/// One change that moves every target, timed until the last monitor's callback ran.
func reevaluateOnce(_ benchmark: Benchmark) {
    guard let state = SuiteState.current, let fleet = state.fleet, let changer = state.changer else { return }
    let removing = state.round % 2 == 0
    state.round += 1
    fleet.arm(expectReachable: !removing)
    benchmark.startMeasurement()
    do {
        try changer.defaultRoute(add: !removing)
    } catch {
        benchmark.error("\(error)")
        return
    }
    let done = fleet.wait(timeoutSeconds: 30)
    benchmark.stopMeasurement()
    if done == nil { benchmark.error("not every monitor got its callback within 30 s" + (state.namespace?.vanishNote ?? "")) }
}

/// Creates N monitors of distinct address targets in the process's own namespace, schedules
/// them, waits for every first callback; reports heap bytes per monitor (glibc's count).
func createMonitors(_ benchmark: Benchmark, count: Int, perMonitor: BenchmarkMetric) {
    let heap0 = ProcessFigures.heapBytes
    benchmark.startMeasurement()
    do {
        let fleet = try MonitorFleet(addresses: (0..<count).map(Bench.distinctTarget))
        fleet.arm(expectReachable: nil)
        fleet.schedule()
        guard fleet.wait(timeoutSeconds: 120) != nil else {
            benchmark.error("first callbacks did not all arrive")
            return
        }
        benchmark.stopMeasurement()
        benchmark.measurement(perMonitor, Int(ProcessFigures.heapBytes - heap0) / count)
        fleet.unschedule()
        withExtendedLifetime(fleet) {}
    } catch {
        benchmark.error("\(error)")
    }
}

let heapPerMonitor = BenchmarkMetric.custom("heap bytes per monitor", polarity: .prefersSmaller, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )

    // The evaluator's pure last step, over every combination of the flags it reads.
    Benchmark("ReachabilityStatus(flags:)",
              configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .nanoseconds,
                                   scalingFactor: .mega)) { benchmark in
        let bits: [UInt32] = [1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5, 1 << 16, 1 << 17, 1 << 18]
        let combinations: [ReachabilityFlags] = (0..<(1 << bits.count)).map { mask in
            ReachabilityFlags(rawValue: bits.enumerated().reduce(0) { mask & (1 << $1.offset) != 0 ? $0 | $1.element : $0 })
        }
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            blackHole(ReachabilityStatus(flags: combinations[i & (combinations.count - 1)]))
        }
    }

    // flags() on a scheduled monitor: the engine's latest evaluation, no kernel round trip.
    Benchmark("flags() scheduled address monitor",
              configuration: .init(timeUnits: .nanoseconds, scalingFactor: .kilo,
                                   setup: {
                                       let state = SuiteState()
                                       state.monitors = [try scheduledMonitor("10.1.2.3", queue: state.queue)]
                                       SuiteState.current = state
                                   },
                                   teardown: { SuiteState.drop() })) { benchmark in
        let monitor = SuiteState.current!.monitors[0]
        for _ in benchmark.scaledIterations {
            blackHole(try? monitor.flags())
        }
    }

    // flags() on an unscheduled monitor: one fresh evaluation (one RTM_GETROUTE).
    Benchmark("flags() unscheduled address monitor",
              configuration: .init(setup: {
                  let state = SuiteState()
                  state.monitors = [try PathMonitor(address: "10.1.2.4")]
                  SuiteState.current = state
              }, teardown: { SuiteState.drop() })) { benchmark in
        blackHole(try? SuiteState.current!.monitors[0].flags())
    }

    // PathMonitor() + setDispatchQueue -> first path, with another monitor keeping the engine open.
    Benchmark("PathMonitor() to first callback, engine open",
              configuration: .init(setup: {
                  let state = SuiteState()
                  state.monitors = [PathMonitor()]
                  SuiteState.current = state
              }, teardown: { SuiteState.drop() })) { benchmark in
        let queue = SuiteState.current!.queue
        let done = DispatchSemaphore(value: 0)
        let monitor = PathMonitor()
        monitor.pathUpdateHandler = { _ in done.signal() }
        monitor.start(queue: queue)
        done.wait()
        benchmark.stopMeasurement()
        monitor.cancel()
    }

    // The same when the monitor opens the namespace's engine (no other monitor alive).
    Benchmark("PathMonitor() to first callback, engine closed",
              configuration: .init(maxDuration: .seconds(5), maxIterations: 100)) { benchmark in
        let queue = DispatchQueue(label: "nrx-bench.first")
        let done = DispatchSemaphore(value: 0)
        let monitor = PathMonitor()
        monitor.pathUpdateHandler = { _ in done.signal() }
        monitor.start(queue: queue)
        done.wait()
        benchmark.stopMeasurement()
        monitor.cancel()
        // Let the engine close before the next iteration.
        usleep(30_000)
    }

    // Memory and allocations per monitor: N distinct address targets in this namespace, scheduled.
    for count in [1000, 10_000] {
        Benchmark("Create and schedule \(count) monitors (distinct addresses)",
                  configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResidentDelta, heapPerMonitor],
                                       timeUnits: .milliseconds, warmupIterations: 1,
                                       maxDuration: .seconds(10), maxIterations: count > 1000 ? 5 : 20)) { benchmark in
            createMonitors(benchmark, count: count, perMonitor: heapPerMonitor)
        }
    }

    // Re-evaluation after one change that moves every target (the default route goes or comes back).
    // One monitor gives the event path's allocations per route change, counted in process (issue 13).
    for (count, same) in [(1, false), (1000, false), (10_000, false), (10_000, true)] {
        let name = "Re-evaluate \(count) scheduled monitor\(count == 1 ? "" : "s") after a route change" + (same ? " (one shared destination)" : "")
        Benchmark(name,
                  configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
                                       timeUnits: .milliseconds, warmupIterations: 2,
                                       maxDuration: .seconds(10), maxIterations: count > 1000 ? 30 : 100,
                                       // Needs a namespace of its own: root.
                                       skip: !Bench.isRoot,
                                       setup: { try reevaluationSetup(count: count, sameDestination: same) },
                                       teardown: { SuiteState.drop() })) { benchmark in
            reevaluateOnce(benchmark)
        }
    }
}
