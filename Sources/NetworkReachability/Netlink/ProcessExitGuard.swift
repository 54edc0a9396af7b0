#if canImport(Glibc)
import Glibc
#endif

/// Keeps libnl teardown away from process exit.
///
/// At `exit()` libnl-route's library destructors unregister its cache types; a cache manager freed
/// after that (an engine released on a dispatch thread while the main thread exits) hits a
/// `BUG()` in `nl_cache_mngt_unprovide` and aborts. An `atexit` handler, which runs before the
/// library destructors, marks the process as exiting under the same lock that every teardown
/// holds: a teardown either finishes before the destructors run, or is skipped (the kernel closes
/// the sockets with the process).
enum ProcessExitGuard {
    // The pthread mutex is the synchronisation; the pointer itself never changes after first use.
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        atexit {
            pthread_mutex_lock(ProcessExitGuard.lock)
            ProcessExitGuard.exiting = true
            pthread_mutex_unlock(ProcessExitGuard.lock)
        }
        return lock
    }()

    // Read and written only with `lock` held.
    nonisolated(unsafe) private static var exiting = false

    /// Registers the exit handler; call before the first libnl object exists.
    static func install() {
        _ = lock
    }

    /// Runs `teardown` unless the process is exiting.
    static func unlessExiting(_ teardown: () -> Void) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if !exiting { teardown() }
    }
}
