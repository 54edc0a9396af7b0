import ReachabilityDelivery
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
    let entry = RunLoopTarget(runLoop: RunLoopHandle(runLoop), mode: runLoopMode)
    let scheduled = target.reschedule { current in
        guard let current else {
            return .move(to: MonitorSchedule(queue: RunLoopSchedule.queue, hop: RunLoopSchedule(entry)))
        }
        guard let runLoops = current.hop as? RunLoopSchedule else { return .refuse }
        runLoops.add(entry)
        return .keep
    }
    if !scheduled { setSCError(Int32(kSCStatusInvalidArgument)) }
    return scheduled
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
    let entry = RunLoopTarget(runLoop: RunLoopHandle(runLoop), mode: runLoopMode)
    let unscheduled = target.reschedule { current in
        guard let runLoops = current?.hop as? RunLoopSchedule, let remaining = runLoops.remove(entry) else {
            return .refuse
        }
        return remaining == 0 ? .move(to: nil) : .keep
    }
    if !unscheduled { setSCError(Int32(kSCStatusInvalidArgument)) }
    return unscheduled
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
