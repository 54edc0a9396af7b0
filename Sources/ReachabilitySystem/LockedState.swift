#if canImport(Glibc)
import Glibc
#endif

/// The package's one lock: a `Sendable` value behind a pthread mutex, with `Mutex`'s `withLock`.
///
/// Swift 6.3's `Synchronization.Mutex` waits on a futex inside an uninstrumented library on Linux,
/// so TSan misses the order it imposes and reports false races; a pthread mutex is one TSan
/// sees, so `scripts/sanitize` checks every lock of the package for real. `Value: Sendable` keeps
/// what the lock guards from being shared outside it by other means.
///
/// Two places need more than a lock, and have a type of their own that says why: the monitor's
/// callout lock is held around user code and taken again from it (`RecursiveLock`), and threads
/// that sleep until a value changes wait on a condition (`WaitableState`).
///
/// `@unchecked Sendable`: `value` is touched only with `mutex` held; the mutex's storage is
/// allocated once and never moves.
package final class LockedState<Value: Sendable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held. No user code and no libnl call belong in `body`.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
