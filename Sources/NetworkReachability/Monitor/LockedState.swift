#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex: `Mutex`'s `withLock`, with a lock the thread sanitizer sees.
///
/// Swift 6.3's `Synchronization.Mutex` waits on a futex inside an uninstrumented library on Linux,
/// so TSan misses the order it imposes and reports false races; the monitors' delivery state,
/// which every user thread and the engine's queue touch, sits behind this lock instead, so that
/// `scripts/sanitize` checks it for real.
///
/// `@unchecked Sendable`: `value` is touched only with `mutex` held; the mutex's storage never moves.
final class LockedState<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held. No user code and no libnl call belong in `body`.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
