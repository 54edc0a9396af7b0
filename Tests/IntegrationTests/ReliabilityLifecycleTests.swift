import Foundation
@testable import NetworkReachabilityCore
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

/// Issue 8, item 3: the lifecycle under concurrency. semantics.md, guarantees 5 and 6: once
/// `unschedule()` (or `cancel()`, or `setDispatchQueue(nil)`) has returned no callback starts;
/// releasing a monitor while a callback is in flight is safe; a context's `release` is called
/// exactly once per `retain`.
final class ReliabilityLifecycleTests: XCTestCase {
    // MARK: - Thousands of monitors from many threads

    /// Monitors made per thread, and threads.
    static let threads = 16
    static let monitorsPerThread = 250

    func testThousandsOfMonitors_fromManyThreads_whileCarrierFlaps_everyReleaseOnce_noLateCallback() throws {
        try withReliabilityNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan, linkLocal: false)
            LifecycleLedger.reset()
            let baseline = EngineRegistry.liveEngineCount
            // One monitor keeps the engine alive for the whole run, so every other one joins it; it
            // also paces the flapping
            var anchor: PathMonitor? = try ns.monitor(plan.onLink)
            let anchorFlags = TimedFlagsLog()
            anchor?.setCallback { anchorFlags.append($0) }
            anchor?.setDispatchQueue(callbackQueue("lifecycle.anchor"))
            let queues = (0..<4).map { callbackQueue("lifecycle.serial.\($0)") }
                + (0..<2).map { callbackQueue("lifecycle.concurrent.\($0)", concurrent: true) }

            // Given the carrier of v0 flapping all along: once per 20 monitors made, and each time
            // after the engine reported the last flap (so the events keep pace with the churn, on a
            // fast machine as under a sanitizer)
            let flapping = Atomic<Bool>(true)
            let flaps = Atomic<Int>(0)
            let progress = DispatchSemaphore(value: 0)
            let flapperDone = DispatchSemaphore(value: 0)
            let flapperThread = Thread {
                var down = true
                while flapping.load(ordering: .relaxed) {
                    guard progress.wait(timeout: .now() + .milliseconds(100)) == .success else { continue }
                    _ = try? ns.ip("link", "set", "v0p", down ? "down" : "up")
                    let expected: ReachabilityFlags = down ? [.reachable, .connectionRequired, .isDirect] : [.reachable, .isDirect]
                    _ = anchorFlags.waitForLast(expected, until: .now() + integrationTimeout)
                    down.toggle()
                    flaps.add(1, ordering: .relaxed)
                }
                _ = try? ns.ip("link", "set", "v0p", "up")
                flapperDone.signal()
            }
            flapperThread.start()

            // When 16 threads each create 250 monitors and schedule, unschedule, reschedule, cancel,
            // replace contexts and release them in eight patterns
            let weakMonitors = Locked<[WeakMonitorBox]>([])
            let survivors = Locked<[(serial: Int, monitor: PathMonitor)]>([])
            let errors = Locked<[String]>([])
            let workersDone = DispatchGroup()
            let started = DispatchTime.now()
            for thread in 0..<Self.threads {
                workersDone.enter()
                let worker = Thread {
                    defer { workersDone.leave() }
                    var boxes: [WeakMonitorBox] = []
                    var kept: [(serial: Int, monitor: PathMonitor)] = []
                    for index in 0..<Self.monitorsPerThread {
                        let serial = thread * Self.monitorsPerThread + index
                        if serial % 20 == 0 { progress.signal() }
                        let queue = queues[serial % queues.count]
                        let other = queues[(serial / queues.count + 1) % queues.count]
                        do {
                            var monitor: PathMonitor? = try ns.monitor(serial % 3 == 0 ? plan.remote : plan.onLink)
                            let box = WeakMonitorBox(monitor!)
                            boxes.append(box)
                            LifecycleLedger.exercise(monitor!, serial: serial, pattern: serial % 8, queue: queue, other: other, kept: &kept)
                            // The worker lets go. Releasing is not a barrier (semantics.md promises one
                            // only for unschedule, cancel and setDispatchQueue(nil)): a delivery that passed
                            // the gate may still call a closure handler. Counted, not a violation.
                            monitor = nil
                            if box.monitor == nil { LifecycleLedger.released(serial: serial) }
                        } catch {
                            errors.withLock { $0.append("monitor \(serial): \(error)") }
                        }
                    }
                    weakMonitors.withLock { $0 += boxes }
                    survivors.withLock { $0 += kept }
                }
                worker.stackSize = 1 << 20
                worker.start()
            }
            XCTAssertEqual(workersDone.wait(timeout: .now() + 300), .success, "the worker threads finished")
            let churn = DispatchTime.now().milliseconds(since: started)
            flapping.store(false, ordering: .relaxed)
            XCTAssertEqual(flapperDone.wait(timeout: .now() + integrationTimeout), .success)
            XCTAssertEqual(errors.withLock { $0 }, [])

            // Then the monitors that release themselves from inside a callback did so
            try waitUntil("every self-releasing monitor released itself") { LifecycleLedger.keptCount == 0 }
            // And every monitor that cancels itself got its first callback, and did
            _ = anchorFlags.waitForLast([.reachable, .isDirect], until: .now() + integrationTimeout)
            _ = anchor!.engine!.currentCounters
            for queue in queues { queue.sync(flags: .barrier) {} }
            // And once the rest are unscheduled and released too, and the queues are drained, every monitor is gone
            for (serial, monitor) in survivors.withLock({ $0 }) {
                monitor.unschedule()
                LifecycleLedger.close(serial: serial)
            }
            survivors.withLock { $0.removeAll() }
            anchor?.unschedule()
            anchor = nil
            for queue in queues { queue.sync(flags: .barrier) {} }
            try waitUntil("every monitor is deallocated") { weakMonitors.withLock { $0.allSatisfy { $0.monitor == nil } } }
            try waitUntil("the engine is gone") { EngineRegistry.liveEngineCount == baseline }
            XCTAssertNil(anchor)

            // And every context was retained once and released once, and no callback started after
            // its monitor's unschedule or cancel returned
            let report = LifecycleLedger.report()
            XCTAssertEqual(report.violations, [], "\(report.violations.count) violations: \(report.violations.prefix(20))")
            XCTAssertEqual(report.unbalanced, [], "contexts not released exactly once: \(report.unbalanced.prefix(20))")
            XCTAssertEqual(report.monitors, Self.threads * Self.monitorsPerThread)
            XCTAssertGreaterThan(report.contexts, report.monitors, "test setup: contexts were replaced")
            XCTAssertGreaterThan(report.callbacks, report.monitors, "test setup: callbacks ran during the churn")
            let perPattern = Self.threads * Self.monitorsPerThread / 8
            XCTAssertEqual(report.cancelledInCallback, perPattern, "monitors that cancelled themselves in their first callback")
            XCTAssertEqual(report.releasedInCallback, perPattern, "monitors that released themselves in their first callback")
            print("""
                reliability lifecycle: \(report.monitors) monitors from \(Self.threads) threads in \(Int(churn)) ms \
                while the carrier flapped \(flaps.load(ordering: .relaxed)) times; \(report.contexts) contexts, each \
                retained once and released once; \(report.callbacks) callbacks, \(report.cancelledInCallback) monitors \
                cancelled and \(report.releasedInCallback) released from inside their callback; 0 callbacks after \
                unschedule or cancel returned; \(report.callbacksAfterRelease) closure handlers started after their \
                monitor was released and deallocated (not promised against)
                """)
        }
    }

    // MARK: - One at a time

    func testCancelFromInsideTheCallback_endsCallbacks_andTheMonitorCanStartAgain() throws {
        try withReliabilityNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan, linkLocal: false)
            let monitor = try ns.monitor(plan.onLink)
            let flags = Recorder<ReachabilityFlags>()
            let cancels = Atomic<Int>(0)
            let paths = Recorder<NetworkPath>()
            monitor.pathUpdateHandler = { [weak monitor] path in
                paths.append(path)
                // When the handler cancels its own monitor, the first time
                if cancels.add(1, ordering: .relaxed).newValue == 1 { monitor?.cancel() }
            }
            monitor.setCallback { flags.append($0) }
            let queue = callbackQueue()
            monitor.start(queue: queue)
            paths.wait(forCount: 1)
            settle(monitor, queue)
            // Then changes after it are not delivered
            let (witness, witnessFlags) = try ns.witness(plan.onLink, on: queue)
            try ns.ip("link", "set", "v0p", "down")
            witnessFlags.wait(forLast: [.reachable, .connectionRequired, .isDirect])
            settle(witness, queue)
            XCTAssertEqual(paths.count, 1, "paths after cancel(): \(paths.all)")
            XCTAssertEqual(flags.all, [[.reachable, .isDirect]], names(flags.all))
            // And started again, it delivers the current state and follows changes
            monitor.start(queue: queue)
            paths.wait(forCount: 2)
            flags.wait(forLast: [.reachable, .connectionRequired, .isDirect])
            try ns.ip("link", "set", "v0p", "up")
            flags.wait(forLast: [.reachable, .isDirect])
            // The path handler runs right after the flags callback, in the same delivery.
            paths.wait(until: "the path after the link came back is satisfied") { $0.last?.status == .satisfied }
            monitor.cancel()
            witness.cancel()
        }
    }

    func testReleasingTheLastReferenceFromInsideTheCallback_deallocatesAfterIt_releasesTheContextOnce() throws {
        try withReliabilityNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan, linkLocal: false)
            // Given a monitor whose only strong reference is held in a box its callback empties
            let holder = MonitorHolder()
            var monitor: PathMonitor? = try ns.monitor(plan.onLink)
            weak let weakMonitor = monitor
            let probe = CallbackProbe()
            monitor?.setCallback(probe)
            holder.monitor = monitor
            let released = DispatchSemaphore(value: 0)
            let seenAlive = Atomic<Bool>(false)
            monitor?.pathUpdateHandler = { _ in
                // When the callback drops the last reference
                holder.monitor = nil
                // Then the monitor is still alive until the callback returns
                seenAlive.store(weakMonitor != nil, ordering: .relaxed)
                released.signal()
            }
            let queue = callbackQueue()
            monitor?.setDispatchQueue(queue)
            monitor = nil
            XCTAssertEqual(released.wait(timeout: .now() + integrationTimeout), .success, "the callback ran")
            // And afterwards it is deallocated, its context released exactly once, and nothing more arrives
            try waitUntil("the monitor is deallocated") { weakMonitor == nil }
            queue.sync {}
            XCTAssertTrue(seenAlive.load(ordering: .relaxed), "the monitor was deallocated while its callback ran")
            XCTAssertEqual(probe.retains, 1)
            XCTAssertEqual(probe.releases, 1)
            try ns.ip("link", "set", "v0p", "down")
            XCTAssertEqual(try ns.monitor(plan.onLink).flags(), [.reachable, .connectionRequired, .isDirect])
            queue.sync {}
            XCTAssertEqual(probe.flags.all, [[.reachable, .isDirect]], names(probe.flags.all))
            XCTAssertEqual(probe.releases, 1)
        }
    }

    func testReplacingTheContextWhileItsCallbackRuns_releasesTheOldOneAfterTheCallbackReturns() throws {
        try withReliabilityNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan, linkLocal: false)
            let monitor = try ns.monitor(plan.onLink)
            let first = CallbackProbe(holdFirstCallback: true)
            let second = CallbackProbe()
            monitor.setCallback(first)
            let queue = callbackQueue()
            monitor.setDispatchQueue(queue)
            XCTAssertEqual(first.entered.wait(timeout: .now() + integrationTimeout), .success, "the first callback started")
            // When another thread replaces the callback and its context while the callback is in flight
            monitor.setCallback(second)
            // Then the old context is not released under the running callback
            XCTAssertEqual(first.releases, 0, "the context was released while its callback ran")
            XCTAssertEqual(second.retains, 1)
            first.proceed.signal()
            // But as soon as it returns; and changes go to the new callback only
            try waitUntil("the old context is released") { first.releases == 1 }
            try ns.ip("link", "set", "v0p", "down")
            second.flags.wait(forLast: [.reachable, .connectionRequired, .isDirect])
            settle(monitor, queue)
            XCTAssertEqual(first.inFlight?.releases, 0)
            XCTAssertEqual(first.flags.all, [[.reachable, .isDirect]], names(first.flags.all))
            XCTAssertEqual(first.retains, 1)
            XCTAssertEqual(first.releases, 1)
            monitor.setCallback(nil, context: nil)
            XCTAssertEqual(second.releases, 1)
            monitor.unschedule()
        }
    }

    func testReplacingContextsInATightLoop_whileCallbacksRun_releasesEachExactlyOnce() throws {
        try withReliabilityNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan, linkLocal: false)
            LifecycleLedger.reset()
            // Given a scheduled monitor on a concurrent queue, with the carrier flapping
            var monitor: PathMonitor? = try ns.monitor(plan.onLink)
            let queue = callbackQueue(concurrent: true)
            LifecycleLedger.register(serial: 0)
            var context = LifecycleLedger.newContext(for: 0)
            monitor?.setCallback(LifecycleLedger.callback, context: &context)
            monitor?.setDispatchQueue(queue)
            // When two threads replace the context 2000 times while 20 carrier changes come in
            let replacing = DispatchGroup()
            for _ in 0..<2 {
                DispatchQueue.global().async(group: replacing) { [monitor] in
                    for _ in 0..<1_000 {
                        var context = LifecycleLedger.newContext(for: 0)
                        monitor?.setCallback(LifecycleLedger.callback, context: &context)
                    }
                }
            }
            for flap in 0..<20 {
                try ns.ip("link", "set", "v0p", flap % 2 == 0 ? "down" : "up")
            }
            XCTAssertEqual(replacing.wait(timeout: .now() + 120), .success)
            monitor?.unschedule()
            LifecycleLedger.close(serial: 0)
            monitor = nil
            queue.sync(flags: .barrier) {}
            // Then each of the 2001 contexts was retained once and released once
            let report = LifecycleLedger.report()
            XCTAssertEqual(report.contexts, 2_001)
            XCTAssertEqual(report.unbalanced, [])
            XCTAssertEqual(report.violations, [])
        }
    }
}
