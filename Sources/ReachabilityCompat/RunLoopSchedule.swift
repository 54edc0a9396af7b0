import ReachabilityDelivery
import ReachabilitySystem
import NetworkReachability
import Dispatch
import Foundation

/// The run loops and modes a target is scheduled in: the hop of its schedule, which carries each
/// delivery on from the schedule's queue to them (the core's `DeliveryHop`).
///
/// This is all the compat layer adds to the core's delivery: the faces run, deduplicated and in
/// order, under the target's callout lock, exactly as on a dispatch queue, only on a run loop's
/// thread. The target's schedule holds the hop; a new schedule makes a new one, and the core's
/// gate drops the deliveries of an older one wherever they arrive.
final class RunLoopSchedule: DeliveryHop {
    /// The queue of every run-loop schedule: the core hands it the deliveries, and all that runs
    /// there is posting them on.
    static let queue = DispatchQueue(label: "network-reachability.compat.run-loops")

    private let targets: LockedState<[RunLoopTarget]>

    init(_ first: RunLoopTarget) {
        targets = LockedState([first])
    }

    /// Adds a run loop and mode (once).
    func add(_ target: RunLoopTarget) {
        targets.withLock { targets in
            if !targets.contains(target) { targets.append(target) }
        }
    }

    /// Removes a run loop and mode. - Returns: how many remain; nil when it was not there.
    func remove(_ target: RunLoopTarget) -> Int? {
        targets.withLock { targets in
            guard let index = targets.firstIndex(of: target) else { return nil }
            targets.remove(at: index)
            return targets.count
        }
    }

    private func includes(_ runLoop: RunLoopHandle) -> Bool {
        targets.withLock { $0.contains { $0.runLoop == runLoop } }
    }

    /// Hands the delivery to each run loop. The first to perform it while still scheduled there
    /// runs the faces; the core's gate turns the others away (the delivery is no longer newer than
    /// the last that ran), as a run-loop source signalled once is performed once however many run
    /// loops hold it.
    func carry(_ perform: @escaping @Sendable (_ isWanted: () -> Bool) -> Void) {
        for (runLoop, modes) in RunLoopTarget.grouped(targets.withLock { $0 }) {
            runLoop.perform(inModes: modes) { [self] in
                // Asked under the target's callout lock: once an unschedule from this run loop
                // returned, no callback of the target starts here.
                perform { includes(runLoop) }
            }
        }
    }
}

/// A run loop, compared by identity.
///
/// `@unchecked Sendable`: only `perform(inModes:block:)` and `add(_:forMode:)` are called from
/// other threads, and CoreFoundation locks the run loop for both (`CFRunLoopPerformBlock`,
/// `CFRunLoopAddTimer`), as Apple documents them safe from any thread.
struct RunLoopHandle: @unchecked Sendable, Equatable {
    let runLoop: RunLoop

    init(_ runLoop: RunLoop) {
        self.runLoop = runLoop
    }

    static func == (lhs: RunLoopHandle, rhs: RunLoopHandle) -> Bool {
        lhs.runLoop === rhs.runLoop
    }

    /// Queues `block` to run on the run loop in one of `modes`, and wakes it.
    ///
    /// A queued block alone does not wake a sleeping run loop, and corelibs Foundation has no
    /// `CFRunLoopWakeUp`; adding a timer that is already due does wake it, and the loop then runs
    /// the queued blocks in order.
    func perform(inModes modes: [RunLoop.Mode], _ block: @escaping @Sendable () -> Void) {
        let wakeUp = WakeUpTimer(Timer(timeInterval: 0, repeats: false) { _ in })
        runLoop.perform(inModes: modes) {
            block()
            // The run loop holds a timer until it fires in one of its modes; one that never runs
            // in the others would keep it for good.
            wakeUp.timer.invalidate()
        }
        for mode in modes {
            runLoop.add(wakeUp.timer, forMode: mode)
        }
    }
}

/// The wake-up timer, handed to the block that invalidates it on the run loop's own thread.
///
/// `@unchecked Sendable`: the timer is created here and then touched only on its run loop's thread.
private final class WakeUpTimer: @unchecked Sendable {
    let timer: Timer

    init(_ timer: Timer) {
        self.timer = timer
    }
}

/// A run loop and a mode a target is scheduled in.
struct RunLoopTarget: Sendable, Equatable {
    var runLoop: RunLoopHandle
    var mode: RunLoop.Mode

    /// The targets grouped by run loop, in first-scheduled order.
    static func grouped(_ targets: [RunLoopTarget]) -> [(RunLoopHandle, [RunLoop.Mode])] {
        var groups: [(RunLoopHandle, [RunLoop.Mode])] = []
        for target in targets {
            if let index = groups.firstIndex(where: { $0.0 == target.runLoop }) {
                groups[index].1.append(target.mode)
            } else {
                groups.append((target.runLoop, [target.mode]))
            }
        }
        return groups
    }
}
