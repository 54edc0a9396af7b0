import Foundation
@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import XCTest

/// Stopping is prompt (issue 32): `cancel()` returns at once, and once the last monitor of a
/// namespace is cancelled and let go its engine is gone, thread and all, within a bound. A
/// service on SIGTERM waits for both.
///
/// Each round measures; `NRX_TEARDOWN_ROUNDS=200` prints the figures BENCHMARKS.md ("Stopping")
/// quotes. The bound is what a service's shutdown can afford, far above what a round takes.
final class TeardownPromptnessTests: XCTestCase {
    /// The most a `cancel()`, or an engine's teardown after its last monitor, may take.
    static let bound: TimeInterval = 0.5

    func testCancel_andTheLastMonitorsEngineTeardown_completeWithinTheBound() throws {
        try withNamespace { ns in
            try ns.ip("link", "add", "v0", "type", "veth", "peer", "name", "v1")
            try ns.ip("addr", "add", "10.9.0.1/24", "dev", "v0")
            try ns.ip("link", "set", "v0", "up")
            try ns.ip("link", "set", "v1", "up")
            let rounds = ProcessInfo.processInfo.environment["NRX_TEARDOWN_ROUNDS"].flatMap(Int.init) ?? 5
            var cancels: [TimeInterval] = []
            var teardowns: [TimeInterval] = []
            for _ in 0..<rounds {
                let (cancel, teardown) = try Self.round(in: .named(ns.name))
                cancels.append(cancel)
                teardowns.append(teardown)
            }
            XCTAssertLessThan(cancels.max() ?? 0, Self.bound, "cancel() of a monitor (not the engine's last)")
            XCTAssertLessThan(teardowns.max() ?? 0, Self.bound, "the last monitor's cancel() to its engine gone")
            print("teardown: \(rounds) rounds; cancel() \(Self.figures(cancels)); "
                  + "last monitor's cancel() to engine and thread gone \(Self.figures(teardowns))")
        }
    }

    /// Two started monitors of one namespace, each with its first path delivered; then the time
    /// `cancel()` of the first takes, and the time from `cancel()` of the last to its engine gone.
    private static func round(in namespace: NetworkNamespace) throws -> (cancel: TimeInterval, teardown: TimeInterval) {
        let baselineEngines = EngineRegistry.liveEngineCount
        let baselineThreads = ProcessResources.threads(named: LoopThread.name)
        var first: PathMonitor? = PathMonitor(namespace: namespace)
        var last: PathMonitor? = try PathMonitor(address: "10.9.0.2", namespace: namespace)
        let delivered = Recorder<Int>()
        for (index, monitor) in [first, last].compactMap({ $0 }).enumerated() {
            monitor.pathUpdateHandler = { _ in delivered.append(index) }
            monitor.start(queue: DispatchQueue(label: "teardown.\(index)"))
        }
        delivered.wait(until: "both monitors delivered their first path") { Set($0).count == 2 }
        XCTAssertEqual(EngineRegistry.liveEngineCount, baselineEngines + 1, "one engine for the namespace")

        let cancelStart = DispatchTime.now()
        first?.cancel()
        let cancel = seconds(since: cancelStart)
        first = nil
        XCTAssertEqual(EngineRegistry.liveEngineCount, baselineEngines + 1, "the other monitor keeps the engine")

        let teardownStart = DispatchTime.now()
        last?.cancel()
        last = nil
        // Polled tightly: the engine's end announces nothing a test could await.
        let deadline = DispatchTime.now() + .milliseconds(Int(bound * 10_000))  // ten bounds: a failure, not a hang
        while EngineRegistry.liveEngineCount != baselineEngines
            || !ProcessResources.threads(named: LoopThread.name, startedSince: baselineThreads).isEmpty {
            guard DispatchTime.now() < deadline else {
                XCTFail("the engine or its thread outlived its last monitor by \(bound * 10) s")
                break
            }
            usleep(50)  // poll interval, not a wait for an event
        }
        return (cancel, seconds(since: teardownStart))
    }

    private static func seconds(since start: DispatchTime) -> TimeInterval {
        TimeInterval(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// `median 0.08 ms, p90 0.1 ms, p99 0.3 ms, max 0.4 ms, 1 of 200 over 1 ms`.
    private static func figures(_ values: [TimeInterval]) -> String {
        let sorted = values.sorted()
        func ms(_ value: TimeInterval) -> String { String(format: "%.3f ms", value * 1000) }
        func percentile(_ p: Double) -> TimeInterval {
            sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
        }
        return "median \(ms(percentile(0.5))), p90 \(ms(percentile(0.9))), p99 \(ms(percentile(0.99))), "
            + "max \(ms(sorted.last ?? 0)), \(sorted.filter { $0 > 0.001 }.count) of \(sorted.count) over 1 ms"
    }
}
