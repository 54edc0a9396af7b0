#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `Sendable` value behind a pthread mutex and a condition, for a thread that sleeps until the
/// value changes: resolver threads waiting for names, a caller waiting for a name's first answer.
///
/// A lock with a condition rather than a `LockedState` and a semaphore: the waiter checks the value
/// and sleeps in one step, so a change made under the lock and followed by `broadcast` is never
/// missed. Deadlines are on the monotonic clock (a wall-clock step neither shortens nor stretches
/// a wait).
///
/// `@unchecked Sendable`: `value` is touched only with `mutex` held; the pthread objects' storage
/// is allocated once and never moves.
package final class WaitableState<Value: Sendable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Blocks until `ready` holds for the value (or, with a `timeout`, until it has passed), then
    /// runs `body` with the lock still held.
    package func wait<Result>(until ready: (Value) -> Bool, timeout: Duration? = nil,
                              then body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let deadline = timeout.map(Self.monotonicDeadline(after:))
        while !ready(value) {
            if var deadline {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
        return try body(&value)
    }

    /// Wakes one waiter, to look at the value again.
    package func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiter, to look at the value again.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }

    private static func monotonicDeadline(after timeout: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = timeout.components
        var nanoseconds = Int64(now.tv_nsec) + attoseconds / 1_000_000_000
        var wholeSeconds = Int64(now.tv_sec) + max(0, seconds) + nanoseconds / 1_000_000_000
        nanoseconds %= 1_000_000_000
        if seconds < 0 { wholeSeconds = Int64(now.tv_sec); nanoseconds = Int64(now.tv_nsec) }
        return timespec(tv_sec: Int(wholeSeconds), tv_nsec: Int(nanoseconds))
    }
}
