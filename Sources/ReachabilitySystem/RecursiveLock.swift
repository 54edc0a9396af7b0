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
/// `@unchecked Sendable`: the mutex's storage is allocated once and never moves.
package final class RecursiveLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held; the thread that holds it may take it again inside.
    package func whileLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
