import ReachabilityDelivery
import Dispatch

// SCNetworkReachabilitySetCallback, SetDispatchQueue and GetFlags, with the arguments of Apple's
// Swift overlay.

/// Sets or clears the target's callback (`SCNetworkReachabilitySetCallback`).
///
/// The context is copied and its `retain` called on `info` now; the callback receives what
/// `retain` returned (or `info`, without a `retain`). The context's `release` is called exactly
/// once: when the callback is replaced or cleared, or the target goes away, after a callback in
/// flight returns. The context's `copyDescription` is called when the target is described
/// (`String(describing: target)`), and the string it returns released. A closure literal that captures nothing converts to the callback type:
///
/// ```swift
/// SCNetworkReachabilitySetCallback(reachability, { (_, flags, info) in
///     guard let info else { return }
///     Unmanaged<Monitor>.fromOpaque(info).takeUnretainedValue().update(flags)
/// }, &context)
/// ```
/// - Parameters:
///   - target: the target.
///   - callout: the callback, or nil to clear it (the context is then ignored).
///   - context: the context, or nil for a nil `info`.
/// - Returns: true.
@discardableResult
public func SCNetworkReachabilitySetCallback(
    _ target: SCNetworkReachability, _ callout: SCNetworkReachabilityCallBack?,
    _ context: UnsafeMutablePointer<SCNetworkReachabilityContext>?
) -> Bool {
    guard let callout else { return target.setCallback(nil, retainedContext: nil) }
    // The target's own C callback face, with a trampoline whose context holds the callout and the
    // user's context: the core retains and releases that box as it does any context.
    let box = CalloutBox(callout, context.map { $0.pointee.callbackContext })
    return target.setCallback(CalloutBox.trampoline, retainedContext: box.callbackContext)
}

/// The same with a C function whose first parameter is the target as an `OpaquePointer`
/// (`PathMonitor.Callback`); `SCNetworkReachabilityGetFlags` accepts that pointer as it is.
@_disfavoredOverload
@discardableResult
public func SCNetworkReachabilitySetCallback(
    _ target: SCNetworkReachability, _ callout: PathMonitor.Callback?,
    _ context: UnsafeMutablePointer<SCNetworkReachabilityContext>?
) -> Bool {
    // The target's own C callback face: the one callback and context of `PathMonitor.setCallback(_:context:)`.
    target.setCallback(callout, retainedContext: callout == nil ? nil : context.map { $0.pointee.callbackContext })
}

/// Schedules the target's callbacks on `queue`, or unschedules them with nil
/// (`SCNetworkReachabilitySetDispatchQueue`).
///
/// Scheduling delivers the current state at once, even "not reachable", then one callback per
/// change of the flags. Unscheduling is a barrier: when it returns, no callback of the target runs
/// or starts (unless it was called from inside one).
/// - Parameters:
///   - target: the target.
///   - queue: the queue, or nil to unschedule.
/// - Returns: true; false with `SCError()` set to `kSCStatusInvalidArgument`, as Apple's, when
///   scheduling a target that is already scheduled (on a queue or a run loop), or unscheduling
///   one that is not scheduled on a queue.
@discardableResult
public func SCNetworkReachabilitySetDispatchQueue(_ target: SCNetworkReachability, _ queue: DispatchQueue?) -> Bool {
    // Apple's rules on the core's schedule: a queue only when idle, nil only for a queue.
    let moved = target.reschedule { current in
        switch (current, queue) {
        case (nil, let queue?): .move(to: MonitorSchedule(queue: queue))
        case (let current?, nil) where current.hop == nil: .move(to: nil)
        default: .refuse
        }
    }
    if !moved { setSCError(Int32(kSCStatusInvalidArgument)) }
    return moved
}

/// Reads the target's flags now (`SCNetworkReachabilityGetFlags`).
///
/// Works whether or not the target is scheduled; for a host name that was never resolved it first
/// waits for the resolution (5 s at most).
/// - Parameters:
///   - target: the target.
///   - flags: receives the flags; an empty set when the call fails.
/// - Returns: true; false with `SCError()` set to `kSCStatusReachabilityUnknown` when they cannot
///   be determined.
@discardableResult
public func SCNetworkReachabilityGetFlags(_ target: SCNetworkReachability, _ flags: UnsafeMutablePointer<SCNetworkReachabilityFlags>) -> Bool {
    do {
        flags.pointee = try target.flags()
        return true
    } catch {
        flags.pointee = []
        setSCError(Int32(kSCStatusReachabilityUnknown))
        return false
    }
}

/// `SCNetworkReachabilityGetFlags` for the first argument of a callback, so that a callback that
/// asks its target for the flags compiles as it does against Apple's SDK.
///
/// - Parameters:
///   - target: the `OpaquePointer` a `SCNetworkReachabilityCallBack` received, used during that
///     callback (any other pointer is undefined behaviour).
///   - flags: receives the flags.
/// - Returns: as the other overload.
@discardableResult
public func SCNetworkReachabilityGetFlags(_ target: OpaquePointer, _ flags: UnsafeMutablePointer<SCNetworkReachabilityFlags>) -> Bool {
    let monitor = Unmanaged<PathMonitor>.fromOpaque(UnsafeRawPointer(target)).takeUnretainedValue()
    return SCNetworkReachabilityGetFlags(monitor, flags)
}
