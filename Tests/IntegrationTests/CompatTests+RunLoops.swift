import Foundation
@testable import ReachabilityCompat
import Synchronization
import XCTest

/// `SCNetworkReachabilityScheduleWithRunLoop` and `UnscheduleFromRunLoop`: the callback on the run
/// loop's thread, each state once (however many run loops hold it), none of an older schedule.
extension CompatTests {
    func testScheduleWithRunLoop_deliversOnTheRunLoopThread_untilUnscheduled() throws {
        try withCompatNamespace { namespace in
            let probe = ContextProbe()
            probe.expectedThread = pthread_self()
            let control = ContextProbe()
            let target = try makeZeroAddressTarget()
            let controlTarget = try makeZeroAddressTarget()
            var context = plainContext(for: probe)
            var controlContext = plainContext(for: control)
            XCTAssertTrue(SCNetworkReachabilitySetCallback(target, Self.recordingCallback, &context))
            XCTAssertTrue(SCNetworkReachabilitySetCallback(controlTarget, Self.recordingCallback, &controlContext))
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(controlTarget, DispatchQueue(label: "CompatTests.control")))

            // Apple's spelling of the run loop and mode
            XCTAssertTrue(SCNetworkReachabilityScheduleWithRunLoop(target, CFRunLoopGetCurrent(), CFRunLoopMode.defaultMode.rawValue))
            XCTAssertTrue(spinRunLoop { probe.flags.values.count >= 1 }, "first callback on the run loop")
            XCTAssertEqual(probe.flags.values, [.reachable])

            // A dispatch queue is refused while on a run loop
            XCTAssertFalse(SCNetworkReachabilitySetDispatchQueue(target, DispatchQueue(label: "CompatTests.refused")))
            XCTAssertEqual(SCError(), Int32(kSCStatusInvalidArgument))

            try namespace.setCarrier(false)
            XCTAssertTrue(spinRunLoop { probe.flags.values.count >= 2 }, "change on the run loop")
            XCTAssertEqual(probe.flags.values, [.reachable, [.reachable, .connectionRequired]])
            XCTAssertEqual(probe.onExpectedThread.values, [true, true])

            // When unscheduled, no more callbacks, though the kernel changes
            XCTAssertTrue(SCNetworkReachabilityUnscheduleFromRunLoop(target, RunLoop.current, .default))
            XCTAssertFalse(SCNetworkReachabilityUnscheduleFromRunLoop(target, RunLoop.current, .default))
            XCTAssertEqual(SCError(), Int32(kSCStatusInvalidArgument))
            try namespace.setCarrier(true)
            wait(for: [control.flags.expectation("carrier back") { $0.count >= 3 && $0.last == .reachable }], timeout: timeout)
            let marker = Atomic<Bool>(false)
            RunLoop.current.perform(inModes: [.default]) { marker.store(true, ordering: .relaxed) }
            XCTAssertTrue(spinRunLoop { marker.load(ordering: .relaxed) })
            XCTAssertEqual(probe.flags.values.count, 2)
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(controlTarget, nil))
        }
    }

    func testSetCallback_onATargetAlreadyOnARunLoop_getsTheCurrentFlagsOnce() throws {
        try withCompatNamespace { _ in
            // Set once the first delivery ran (with no callback), and set while it is on its way
            for firstDeliveryRan in [true, false] {
                let probe = ContextProbe()
                let target = try makeZeroAddressTarget()
                XCTAssertTrue(SCNetworkReachabilityScheduleWithRunLoop(target, RunLoop.current, .default))
                if firstDeliveryRan { spinRunLoop(for: 0.2) }
                var context = plainContext(for: probe)
                XCTAssertTrue(SCNetworkReachabilitySetCallback(target, Self.recordingCallback, &context))
                XCTAssertTrue(spinRunLoop { probe.flags.values.count >= 1 }, "the current flags")
                spinRunLoop(for: 0.3)
                XCTAssertEqual(probe.flags.values, [.reachable], "first delivery ran: \(firstDeliveryRan)")
                XCTAssertTrue(SCNetworkReachabilityUnscheduleFromRunLoop(target, RunLoop.current, .default))
            }
        }
    }

    func testTwoRunLoops_eachStateIsPerformedOnce_inOrder() throws {
        try withCompatNamespace { namespace in
            let other = RunLoopThread()
            defer { other.stop() }
            let probe = ContextProbe()
            let target = try makeZeroAddressTarget()
            var context = plainContext(for: probe)
            XCTAssertTrue(SCNetworkReachabilitySetCallback(target, Self.recordingCallback, &context))
            XCTAssertTrue(SCNetworkReachabilityScheduleWithRunLoop(target, RunLoop.current, .default))
            XCTAssertTrue(SCNetworkReachabilityScheduleWithRunLoop(target, other.runLoop, .default))
            XCTAssertTrue(SCNetworkReachabilityScheduleWithRunLoop(target, other.runLoop, .default), "again: no second entry")

            XCTAssertTrue(spinRunLoop { probe.flags.values.count >= 1 })
            try namespace.setCarrier(false)
            XCTAssertTrue(spinRunLoop { probe.flags.values.count >= 2 })
            try namespace.setCarrier(true)
            XCTAssertTrue(spinRunLoop { probe.flags.values.count >= 3 })
            spinRunLoop(for: 0.3)
            XCTAssertEqual(probe.flags.values, [.reachable, [.reachable, .connectionRequired], .reachable])

            // Off one run loop, the other still performs every state
            XCTAssertTrue(SCNetworkReachabilityUnscheduleFromRunLoop(target, RunLoop.current, .default))
            try namespace.setCarrier(false)
            wait(for: [probe.flags.expectation(count: 4)], timeout: timeout)
            XCTAssertTrue(SCNetworkReachabilityUnscheduleFromRunLoop(target, other.runLoop, .default))
            XCTAssertFalse(SCNetworkReachabilityUnscheduleFromRunLoop(target, other.runLoop, .default))
            XCTAssertEqual(SCError(), Int32(kSCStatusInvalidArgument))
        }
    }

    func testDeliveryOfAnOlderSchedule_isDropped() throws {
        try withCompatNamespace { _ in
            let probe = ContextProbe()
            let target = try makeZeroAddressTarget()
            var context = plainContext(for: probe)
            XCTAssertTrue(SCNetworkReachabilitySetCallback(target, Self.recordingCallback, &context))

            // The first schedule's delivery reaches the run loop, which does not run yet: the
            // schedule queues it on the run-loop schedules' queue, which hands it to the run loop
            XCTAssertTrue(SCNetworkReachabilityScheduleWithRunLoop(target, RunLoop.current, .default))
            RunLoopSchedule.queue.sync {}
            XCTAssertTrue(SCNetworkReachabilityUnscheduleFromRunLoop(target, RunLoop.current, .default))
            XCTAssertTrue(SCNetworkReachabilityScheduleWithRunLoop(target, RunLoop.current, .default))

            // Only the new schedule's first callback runs: the run loop performs its blocks in
            // order, so the old schedule's had its turn (and was dropped) before the new one ran
            XCTAssertTrue(spinRunLoop { probe.flags.values.count >= 1 })
            _ = RunLoop.current.run(mode: .default, before: Date())  // any block still queued runs now
            XCTAssertEqual(probe.flags.values, [.reachable])
            XCTAssertTrue(SCNetworkReachabilityUnscheduleFromRunLoop(target, RunLoop.current, .default))
        }
    }

    func testSCCallbackAndPathMonitorsFlagsClosure_onOneTarget_bothHearEachState() throws {
        try withCompatNamespace { namespace in
            let probe = ContextProbe()
            let closureFlags = PortingRecorder<SCNetworkReachabilityFlags>()
            let target = try makeZeroAddressTarget()
            var context = plainContext(for: probe)
            XCTAssertTrue(SCNetworkReachabilitySetCallback(target, Self.recordingCallback, &context))
            target.setCallback { closureFlags.append($0) }
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(target, DispatchQueue(label: "CompatTests.faces")))
            try namespace.setCarrier(false)
            let changed: @Sendable ([SCNetworkReachabilityFlags]) -> Bool = {
                $0 == [.reachable, [.reachable, .connectionRequired]]
            }
            let bothChanged = [probe.flags.expectation("callback", until: changed), closureFlags.expectation("closure", until: changed)]
            wait(for: bothChanged, timeout: timeout)
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(target, nil))
        }
    }

    /// Runs the current run loop in the default mode until `condition` holds or the timeout passes.
    @discardableResult
    func spinRunLoop(until condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition(), Date() < deadline {
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
        }
        return condition()
    }

    /// Runs the current run loop in the default mode for `seconds` (longer under a sanitizer): what
    /// is queued there runs.
    func spinRunLoop(for seconds: TimeInterval) {
        let end = Date(timeIntervalSinceNow: seconds * ReliabilityEnvironment.timeScale)
        spinRunLoop { Date() >= end }
    }

    /// A thread that runs its run loop in the default mode until stopped.
    final class RunLoopThread: @unchecked Sendable {
        // `@unchecked`: `runLoop` is written once before `init` returns (the semaphore orders it);
        // `RunLoop` allows `perform` and `add` from other threads.
        private(set) var runLoop: RunLoop!
        private let stopped = Atomic<Bool>(false)
        private let finished = DispatchSemaphore(value: 0)

        init() {
            let ready = DispatchSemaphore(value: 0)
            Thread.detachNewThread { [self] in
                runLoop = RunLoop.current
                // A run loop with nothing to wait for returns at once; this timer keeps it waiting.
                runLoop.add(Timer(timeInterval: 3600, repeats: true) { _ in }, forMode: .default)
                ready.signal()
                while !stopped.load(ordering: .relaxed) {
                    _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
                }
                finished.signal()
            }
            ready.wait()
        }

        func stop() {
            stopped.store(true, ordering: .relaxed)
            finished.wait()
        }
    }
}
