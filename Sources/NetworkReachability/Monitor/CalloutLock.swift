#if canImport(Glibc)
import Glibc
#endif

/// A recursive mutex held while a monitor's user callbacks run.
///
/// `unschedule()` takes and releases it after closing the gate, so when it returns no callback of
/// that monitor is running or can start (guarantee 5). Recursive, so a callback may unschedule,
/// cancel or release its own monitor.
///
/// `@unchecked Sendable`: the pthread mutex is the synchronisation; its storage is allocated once
/// and never moves.
final class CalloutLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
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

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
