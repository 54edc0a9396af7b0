#if canImport(Glibc)
import Glibc
#endif

/// The package's one lock: a `Sendable` value behind a pthread mutex, with `Mutex`'s `withLock`,
/// optionally recursive and optionally with a condition to wait on.
///
/// Swift 6.3's `Synchronization.Mutex` waits on a futex inside an uninstrumented library on Linux,
/// so TSan misses the order it imposes and reports false races; a pthread mutex is one TSan
/// sees, so `scripts/sanitize` checks every lock of the package for real. `Value: Sendable` keeps
/// what the lock guards from being shared outside it by other means.
///
/// `@unchecked Sendable`: `value` is touched only with `mutex` held; the pthread objects' storage
/// is allocated once and never moves.
package final class LockedState<Value: Sendable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Only for a lock made `withCondition`: one pointer otherwise, no pthread object.
    private let condition: UnsafeMutablePointer<pthread_cond_t>?
    private var value: Value

    /// - Parameters:
    ///   - recursive: the thread that holds the lock may take it again (a callback that
    ///     unschedules its own monitor under the callout lock).
    ///   - withCondition: `wait(until:)`, `signal()` and `broadcast()` may be used.
    package init(_ value: Value, recursive: Bool = false, withCondition: Bool = false) {
        self.value = value
        if recursive {
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        } else {
            pthread_mutex_init(mutex, nil)
        }
        if withCondition {
            let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
            pthread_cond_init(condition, nil)
            self.condition = condition
        } else {
            condition = nil
        }
    }

    deinit {
        if let condition {
            pthread_cond_destroy(condition)
            condition.deallocate()
        }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held. No user code and no libnl call belong in `body`
    /// (the callout lock, which holds no value, is the one exception: it exists to be held around user code).
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Runs `body` with the lock held but without the value: how a recursive lock is taken again
    /// (a nested `withLock` would access the value twice at once, which the exclusivity check stops).
    package func whileLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Blocks until `ready` holds for the value, then runs `body` with the lock still held.
    /// A change made with the lock held and followed by `signal` or `broadcast` is never missed.
    package func wait<Result>(until ready: (Value) -> Bool, then body: (inout Value) throws -> Result) rethrows -> Result {
        guard let condition else { preconditionFailure("LockedState.wait needs a lock made withCondition") }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value) {
            pthread_cond_wait(condition, mutex)
        }
        return try body(&value)
    }

    /// Wakes one waiter, to look at the value again.
    package func signal() {
        if let condition { pthread_cond_signal(condition) }
    }

    /// Wakes every waiter, to look at the value again.
    package func broadcast() {
        if let condition { pthread_cond_broadcast(condition) }
    }
}
