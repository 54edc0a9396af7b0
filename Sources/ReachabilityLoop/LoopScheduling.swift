import Dispatch
import ReachabilitySystem

/// What code other than a loop's owner needs of the loop: running a closure on its thread, now or
/// once a moment has passed (on the monotonic clock, or on the boot clock, which counts the time a
/// machine spent suspended), cancelling such a timer, and waiting until the loop ran something.
/// A connectivity prober keeps its control on an engine's loop through it, and so names no engine.
package protocol LoopScheduling: AnyObject, Sendable {
    /// Posts `work` to run on the loop's thread soon. - Returns: false when the loop has ended or
    /// is stopping (nothing runs).
    @discardableResult
    func execute(_ work: @escaping @Sendable () -> Void) -> Bool
    /// Runs `work` on the loop once `deadline` has passed; never after `cancel`.
    func schedule(at deadline: DispatchTime, run work: @escaping @Sendable () -> Void) -> WatchToken
    /// Runs `work` on the loop once `delay` has passed on the boot clock.
    func schedule(afterBootTime delay: Duration, run work: @escaping @Sendable () -> Void) -> WatchToken
    /// Cancels a timer that has not fired. From any thread.
    func cancel(_ token: WatchToken)
    /// Runs `body` on the loop's thread and returns its answer, the caller waiting; nil when the
    /// loop has ended.
    func submitAndWait<Value>(_ body: @escaping () -> Value) -> Value?
}
