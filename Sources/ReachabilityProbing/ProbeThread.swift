import ReachabilityLoop
#if canImport(Glibc)
import Glibc
#endif

/// The thread a connectivity probe blocks on (in `poll`, bounded by the probe's timeout), one a
/// probe: probes come once per interval at most, and a loop must never block.
enum ProbeThread {
    /// Runs `body` on a new detached thread.
    /// - Returns: false when no thread can be made (a pids limit): `body` does not run.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let retained = Unmanaged.passRetained(ProbeBody(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<ProbeBody>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, retained)
        guard result == 0 else {
            Unmanaged<ProbeBody>.fromOpaque(retained).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}

/// The probe's work, handed to its thread once.
private final class ProbeBody: Sendable {
    package let body: @Sendable () -> Void

    package init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }
}
