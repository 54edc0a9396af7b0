@testable import NetworkReachabilityCore
@testable import ReachabilityDelivery
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Synchronization
import XCTest

/// Issue 4, NWPathMonitor's face over a real namespace: the async sequence (a consuming task that
/// is cancelled leaks nothing; `cancel()` ends a `for await`; each iteration is its own
/// subscription), the delegate, and `currentPath` read from many threads while events arrive.
final class PathMonitorFaceTests: XCTestCase {
    private let plan = AddressPlan.ipv4

    /// v0 with carrier, an address and the default route: the general path is satisfied over v0.
    private func addDefault(_ ns: Namespace) throws {
        try ns.addLink("v0", address: plan.hostCIDR)
        try ns.ip("-4", "route", "add", "default", "via", plan.gateway, "dev", "v0")
    }

    /// Takes v0's carrier away or gives it back, and waits until the kernel shows it.
    private func setCarrier(_ on: Bool, _ ns: Namespace) throws {
        try ns.ip("link", "set", "v0p", on ? "up" : "down")
        try ns.waitForLink("v0", carrier: on)
    }

    /// Holds a weak reference where a `@Sendable` closure can set it and the test can read it.
    private final class WeakBox<T: AnyObject>: @unchecked Sendable {
        private let lock = NSLock()
        private weak var storage: T?
        var value: T? {
            get { lock.withLock { storage } }
            set { lock.withLock { storage = newValue } }
        }
    }

    /// Hands a value to a task without letting the test keep it: the test's reference is gone once
    /// the task took it.
    private final class Handoff<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: T?
        init(_ value: T) { self.value = value }
        func take() -> T? { lock.withLock { defer { value = nil }; return value } }
    }

    // MARK: - AsyncSequence

    func testForAwait_firstElementIsTheCurrentPath_thenEveryChange() throws {
        try withPathNamespace { ns in
            try addDefault(ns)
            let monitor = try ns.generalMonitor()
            let paths = Recorder<NetworkPath>()
            let ended = expectation(description: "the loop ended")
            let task = Task {
                for await path in monitor { paths.append(path) }
                ended.fulfill()
            }
            defer { task.cancel() }
            paths.wait(forCount: 1)
            XCTAssertEqual(paths.all.first?.status, .satisfied, "\(paths.all)")
            XCTAssertEqual(paths.all.first?.interface?.name, "v0", "\(paths.all)")

            try setCarrier(false, ns)
            paths.wait(until: "the path has no carrier") { $0.last?.unsatisfiedReason == .noCarrier }
            try setCarrier(true, ns)
            paths.wait(until: "the path is satisfied again") { $0.count >= 3 && $0.last?.status == .satisfied }
            XCTAssertNil(firstRepeat(in: paths.all), "the same path twice in a row: \(paths.all)")

            monitor.cancel()
            wait(for: [ended], timeout: integrationTimeout)
        }
    }

    /// The consuming task is cancelled: its `for await` ends, its subscription ends, and nothing is
    /// left behind: the monitor (held only by the task) and its core are deallocated.
    func testForAwait_inACancelledTask_endsItsSubscription_andLeaksNothing() throws {
        try withPathNamespace { ns in
            try addDefault(ns)
            let weakMonitor = WeakBox<PathMonitor>()
            let weakCore = WeakBox<MonitorCore>()
            let engine: EngineHandle
            let handoff: Handoff<PathMonitor>
            do {
                let monitor = try ns.generalMonitor()
                weakMonitor.value = monitor
                weakCore.value = monitor.core
                engine = try XCTUnwrap(monitor.engine)
                handoff = Handoff(monitor)
            }
            let firstPath = expectation(description: "the first path")
            let ended = expectation(description: "the task ended")
            let count = Atomic<Int>(0)
            let task = Task {
                guard let monitor = handoff.take() else { return }
                for await _ in monitor {
                    if count.add(1, ordering: .relaxed).newValue == 1 { firstPath.fulfill() }
                }
                ended.fulfill()
            }
            wait(for: [firstPath], timeout: integrationTimeout)
            XCTAssertNotNil(weakMonitor.value, "the iterating task holds the monitor")

            // When the consuming task is cancelled
            task.cancel()
            wait(for: [ended], timeout: integrationTimeout)

            // Then the monitor is gone, and once the engine ran what was queued, so is its core
            XCTAssertTrue(waitForNil(weakMonitor), "the monitor outlived the cancelled task that iterated it")
            _ = engine.currentCounters  // a hop through the engine's queue: the unsubscription ran
            XCTAssertTrue(waitForNil(weakCore), "the engine still holds the core of a monitor whose iteration was cancelled")

            // And a kernel event afterwards reaches nobody: a new monitor still works, the old count stays
            let seen = count.load(ordering: .relaxed)
            try setCarrier(false, ns)
            XCTAssertEqual(try ns.generalMonitor().currentPath.status, .unsatisfied)
            XCTAssertEqual(count.load(ordering: .relaxed), seen)
        }
    }

    /// Waits (bounded, by condition) until `box` is empty: deallocation may finish on another thread
    /// just after the task's completion was signalled.
    private func waitForNil<T>(_ box: WeakBox<T>) -> Bool {
        let deadline = Date().addingTimeInterval(integrationTimeout)
        while box.value != nil {
            if Date() > deadline { return false }
            sched_yield()
        }
        return true
    }

    func testCancel_endsAForAwait_andTheMonitorCanBeStartedAgain() throws {
        try withPathNamespace { ns in
            try addDefault(ns)
            let monitor = try ns.generalMonitor()
            let paths = Recorder<NetworkPath>()
            let ended = expectation(description: "the loop ended after cancel()")
            let task = Task {
                for await path in monitor { paths.append(path) }
                ended.fulfill()
            }
            defer { task.cancel() }
            paths.wait(forCount: 1)

            // When the monitor is cancelled, the for-await ends (its task was not cancelled)
            monitor.cancel()
            wait(for: [ended], timeout: integrationTimeout)
            XCTAssertFalse(task.isCancelled)

            // And the monitor can be started again: the handler gets the current path
            let watch = WatchedMonitor(monitor)
            defer { watch.stop() }
            XCTAssertEqual(watch.paths.all.first?.status, .satisfied, "\(watch.paths.all)")

            // And iterated again, from the current path on
            let again = Recorder<NetworkPath>()
            let second = Task {
                for await path in monitor { again.append(path) }
            }
            defer { second.cancel() }
            again.wait(forCount: 1)
            try setCarrier(false, ns)
            again.wait(until: "the second iteration sees the change") { $0.last?.unsatisfiedReason == .noCarrier }
            watch.wait(until: "the handler sees it too") { $0.unsatisfiedReason == .noCarrier }
        }
    }

    /// Two iterations are two subscriptions: each starts with the current path, and cancelling the
    /// task of one leaves the other going.
    func testTwoIterations_areIndependentSubscriptions() throws {
        try withPathNamespace { ns in
            try addDefault(ns)
            let monitor = try ns.generalMonitor()
            let (first, second) = (Recorder<NetworkPath>(), Recorder<NetworkPath>())
            let firstTask = Task { for await path in monitor { first.append(path) } }
            let secondTask = Task { for await path in monitor { second.append(path) } }
            defer { firstTask.cancel(); secondTask.cancel() }
            first.wait(forCount: 1)
            second.wait(forCount: 1)
            XCTAssertEqual(first.all.first, second.all.first)

            firstTask.cancel()
            let firstEnded = expectation(description: "the first task ended")
            Task { _ = await firstTask.value; firstEnded.fulfill() }
            wait(for: [firstEnded], timeout: integrationTimeout)

            try setCarrier(false, ns)
            second.wait(until: "the second iteration still follows") { $0.last?.unsatisfiedReason == .noCarrier }
            monitor.cancel()
        }
    }

    // MARK: - Delegate

    func testDelegate_isToldTheFirstPathAndEveryChange_onTheMonitorsQueue() throws {
        try withPathNamespace { ns in
            try addDefault(ns)
            let monitor = try ns.generalMonitor()
            let queue = callbackQueue()
            let key = DispatchSpecificKey<String>()
            queue.setSpecific(key: key, value: "the monitor's queue")
            let delegate = QueueCheckingDelegate(key: key)
            monitor.delegate = delegate
            monitor.start(queue: queue)
            defer { monitor.cancel() }
            delegate.paths.wait(forCount: 1)
            XCTAssertTrue(delegate.paths.all.first.map { $0.0 === monitor } ?? false, "the delegate is told which monitor")
            XCTAssertEqual(delegate.paths.all.first?.1.status, .satisfied)

            try setCarrier(false, ns)
            delegate.paths.wait(until: "the delegate heard the carrier loss") { $0.last?.1.unsatisfiedReason == .noCarrier }
            settle(monitor, queue)
            XCTAssertEqual(delegate.paths.all.map(\.2), Array(repeating: "the monitor's queue", count: delegate.paths.count))
        }
    }

    /// The delegate is held weakly: once the user lets it go it is deallocated, and the monitor goes on
    /// without it (the handler still runs).
    func testDelegate_isHeldWeakly() throws {
        try withPathNamespace { ns in
            try addDefault(ns)
            let weakDelegate = WeakBox<RecordingDelegate>()
            let watchMonitor = try ns.generalMonitor()
            do {
                let delegate = RecordingDelegate()
                weakDelegate.value = delegate
                watchMonitor.delegate = delegate
            }
            XCTAssertNil(weakDelegate.value, "the monitor retained its delegate")
            XCTAssertNil(watchMonitor.delegate)
            let watch = WatchedMonitor(watchMonitor)
            defer { watch.stop() }
            try setCarrier(false, ns)
            watch.wait(until: "the handler still runs") { $0.unsatisfiedReason == .noCarrier }
        }
    }

    // MARK: - currentPath from many threads

    /// `currentPath` is safe to read from any thread: 8 threads read a scheduled and an unscheduled
    /// monitor in a loop while v0's carrier flaps and the scheduled one delivers. Also run under
    /// `swift test --sanitize=thread --filter PathMonitorFaceTests.testCurrentPath_readFromEightThreads_whileCarrierFlaps`.
    func testCurrentPath_readFromEightThreads_whileCarrierFlaps() throws {
        try withPathNamespace { ns in
            try addDefault(ns)
            let scheduled = WatchedMonitor(try ns.generalMonitor())
            defer { scheduled.stop() }
            let unscheduled = try ns.generalMonitor()
            let flapping = Atomic<Bool>(true)
            let reads = Atomic<Int>(0)
            let inconsistent = Mutex<[String]>([])
            let readers = DispatchGroup()
            let gateway = plan.gateway

            for reader in 0..<8 {
                readers.enter()
                Thread.detachNewThread {
                    defer { readers.leave() }
                    while flapping.load(ordering: .acquiring) {
                        let monitor = reader.isMultiple(of: 2) ? scheduled.monitor : unscheduled
                        let path = monitor.currentPath
                        reads.add(1, ordering: .relaxed)
                        // A torn or mixed path would break these invariants of every path this topology has
                        let consistent = (path.status == .satisfied && path.flags == [.reachable] && path.unsatisfiedReason == nil)
                            || (path.status == .unsatisfied && path.flags == [.reachable, .connectionRequired]
                                && path.unsatisfiedReason == .noCarrier)
                        if !consistent || path.interface?.name != "v0" || path.gateways.map(\.addressString) != [gateway] {
                            inconsistent.withLock { $0.append("\(path)") }
                        }
                    }
                }
            }
            defer {
                flapping.store(false, ordering: .releasing)
                _ = readers.wait(timeout: .now() + integrationTimeout)
            }

            // While they read, flap the carrier, each step awaited in the kernel and in the scheduled monitor
            for _ in 0..<10 {
                try setCarrier(false, ns)
                scheduled.wait(until: "the scheduled monitor saw the carrier go") { $0.unsatisfiedReason == .noCarrier }
                try setCarrier(true, ns)
                scheduled.wait(until: "the scheduled monitor saw it come back") { $0.status == .satisfied }
            }
            flapping.store(false, ordering: .releasing)
            XCTAssertEqual(readers.wait(timeout: .now() + integrationTimeout), .success, "the readers did not stop")
            XCTAssertGreaterThan(reads.load(ordering: .relaxed), 8, "the readers did read")
            print("currentPath read \(reads.load(ordering: .relaxed)) times by 8 threads over 10 carrier flaps; \(scheduled.paths.count) paths delivered")
            XCTAssertEqual(inconsistent.withLock { $0 }, [], "paths read while events arrived")
            XCTAssertEqual(scheduled.monitor.currentPath.status, .satisfied)
            XCTAssertNil(firstRepeat(in: scheduled.paths.all), "the same path twice in a row: \(scheduled.paths.all)")
        }
    }
}

/// A delegate that records, with each path, the monitor and the label of the queue it was told on.
private final class QueueCheckingDelegate: PathMonitorDelegate, @unchecked Sendable {
    let paths = Recorder<(PathMonitor, NetworkPath, String)>()
    private let key: DispatchSpecificKey<String>

    init(key: DispatchSpecificKey<String>) {
        self.key = key
    }

    func pathMonitor(_ monitor: PathMonitor, didUpdate path: NetworkPath) {
        paths.append((monitor, path, DispatchQueue.getSpecific(key: key) ?? "another queue"))
    }
}
