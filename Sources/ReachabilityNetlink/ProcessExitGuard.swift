import ReachabilityModel
import ReachabilitySystem
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
package enum ProcessExitGuard {
    /// Whether the process is exiting; the exit handler is registered with its first use.
    private static let exiting: LockedState<Bool> = {
        let exiting = LockedState(false)
        atexit {
            ProcessExitGuard.exiting.withLock { $0 = true }
        }
        return exiting
    }()

    /// Registers the exit handler; call before the first libnl object exists.
    package static func install() {
        _ = exiting
    }

    /// Runs `teardown` unless the process is exiting.
    package static func unlessExiting(_ teardown: () -> Void) {
        exiting.withLock { exiting in
            if !exiting { teardown() }
        }
    }
}
