import Foundation

// Scheduling on Foundation's run loops: SCNetworkReachabilityScheduleWithRunLoop and
// SCNetworkReachabilityUnscheduleFromRunLoop, with Foundation's `RunLoop` and `RunLoop.Mode` where
// Apple's take a `CFRunLoop` and a `CFString` (swift-corelibs-foundation does not export
// CoreFoundation). `CFRunLoopGetCurrent()`, `CFRunLoopGetMain()`, `CFRunLoopMode` and
// `kCFRunLoopDefaultMode`/`kCFRunLoopCommonModes` stand in for Apple's, so that the usual calls
// compile unchanged.

/// Schedules the target's callbacks on `runLoop` in `runLoopMode`
/// (`SCNetworkReachabilityScheduleWithRunLoop`).
///
/// The target is watched on a private queue; each state hops to the run loop with
/// `RunLoop.perform(inModes:block:)` (and wakes it), so the callback runs on the run loop's thread
/// while it runs in that mode. The first callback carries the current state. A target may be
/// scheduled on several run loops and modes; each state is delivered once, by the first run loop to
/// reach it.
/// - Parameters:
///   - target: the target.
///   - runLoop: the run loop, such as `RunLoop.current` or `CFRunLoopGetMain()`.
///   - runLoopMode: the mode, such as `.default` or `.common`.
/// - Returns: true; false with `SCError()` set to `kSCStatusInvalidArgument` when the target is
///   scheduled on a dispatch queue.
@discardableResult
public func SCNetworkReachabilityScheduleWithRunLoop(_ target: SCNetworkReachability, _ runLoop: RunLoop, _ runLoopMode: RunLoop.Mode) -> Bool {
    let record = TargetRecord.of(target)
    let entry = RunLoopTarget(runLoop: RunLoopHandle(runLoop), mode: runLoopMode)
    var wasIdle = false
    let result = record.updateRunLoops { current in
        wasIdle = current.isEmpty
        return current.contains(entry) ? current : current + [entry]
    }
    guard result != nil else {
        setSCError(Int32(kSCStatusInvalidArgument))
        return false
    }
    if wasIdle { target.setDispatchQueue(record.runLoopQueue) }
    return true
}

/// `SCNetworkReachabilityScheduleWithRunLoop` with the mode's name, for `CFRunLoopMode.defaultMode.rawValue`.
@discardableResult
public func SCNetworkReachabilityScheduleWithRunLoop(_ target: SCNetworkReachability, _ runLoop: RunLoop, _ runLoopMode: String) -> Bool {
    SCNetworkReachabilityScheduleWithRunLoop(target, runLoop, RunLoop.Mode(runLoopMode))
}

/// Unschedules the target from `runLoop` in `runLoopMode` (`SCNetworkReachabilityUnscheduleFromRunLoop`).
///
/// When it returns, no callback starts on that run loop in that mode; once the last run loop is
/// removed, the target stops being watched.
/// - Returns: true; false with `SCError()` set to `kSCStatusInvalidArgument` when the target was
///   not scheduled there.
@discardableResult
public func SCNetworkReachabilityUnscheduleFromRunLoop(_ target: SCNetworkReachability, _ runLoop: RunLoop, _ runLoopMode: RunLoop.Mode) -> Bool {
    let record = TargetRecord.of(target)
    let entry = RunLoopTarget(runLoop: RunLoopHandle(runLoop), mode: runLoopMode)
    let result = record.updateRunLoops { current in
        current.contains(entry) ? current.filter { $0 != entry } : nil
    }
    guard let remaining = result else {
        setSCError(Int32(kSCStatusInvalidArgument))
        return false
    }
    if remaining.isEmpty { target.unschedule() }
    return true
}

/// `SCNetworkReachabilityUnscheduleFromRunLoop` with the mode's name.
@discardableResult
public func SCNetworkReachabilityUnscheduleFromRunLoop(_ target: SCNetworkReachability, _ runLoop: RunLoop, _ runLoopMode: String) -> Bool {
    SCNetworkReachabilityUnscheduleFromRunLoop(target, runLoop, RunLoop.Mode(runLoopMode))
}

/// Stands for Apple's `CFRunLoopMode`: Foundation's `RunLoop.Mode`.
public typealias CFRunLoopMode = RunLoop.Mode

extension RunLoop.Mode {
    /// Apple's `CFRunLoopMode.defaultMode`: `RunLoop.Mode.default`.
    public static var defaultMode: RunLoop.Mode { .default }
    /// Apple's `CFRunLoopMode.commonModes`: `RunLoop.Mode.common`.
    public static var commonModes: RunLoop.Mode { .common }
}

/// Stands for Apple's `kCFRunLoopDefaultMode`: `RunLoop.Mode.default`.
public var kCFRunLoopDefaultMode: RunLoop.Mode { .default }
/// Stands for Apple's `kCFRunLoopCommonModes`: `RunLoop.Mode.common`.
public var kCFRunLoopCommonModes: RunLoop.Mode { .common }

/// Stands for Apple's `CFRunLoopGetCurrent()`: `RunLoop.current`.
public func CFRunLoopGetCurrent() -> RunLoop { RunLoop.current }
/// Stands for Apple's `CFRunLoopGetMain()`: `RunLoop.main`.
public func CFRunLoopGetMain() -> RunLoop { RunLoop.main }

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
