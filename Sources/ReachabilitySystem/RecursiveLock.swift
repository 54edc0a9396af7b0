#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A recursive pthread mutex that guards no value: the one lock of the package held around user
/// code, a monitor's callout lock.
///
/// Recursive because a callback runs with it held and may unschedule, cancel or release its own
/// monitor, which takes it again on the same thread (to wait out a callback in flight). Every
/// other lock is a `LockedState`, never held around user code.
///
/// The mutex lives in the lock's own allocation (`MutexBuffer`), not in a block of its own.
/// `@unchecked Sendable`: the buffer holds nothing but the mutex.
package struct RecursiveLock: @unchecked Sendable {
    private let buffer = MutexBuffer.make((), recursive: true)

    package init() {}

    /// Runs `body` with the lock held; the thread that holds it may take it again inside.
    package func whileLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        try buffer.whileLocked(body)
    }
}
