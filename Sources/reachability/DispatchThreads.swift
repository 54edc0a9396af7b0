import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The threads a long-running command needs before it hands its records to a dispatch queue.
///
/// The engine waits on a thread of its own and needs no dispatch worker, but `watch`, `wait` and
/// `demo` deliver on a `DispatchQueue` of the command's and wait for signals with dispatch
/// sources: libdispatch needs worker threads for those, and when it cannot create one (a pids
/// cgroup limit, `RLIMIT_NPROC`) it waits forever instead of failing. So these commands start
/// that many threads at once first, and fail with one line if they cannot, as they do for
/// descriptors (`DispatchDescriptors`).
enum DispatchThreads {
    /// The engine's loop thread, libdispatch's event loop and a worker for the command's queue, and a
    /// resolver thread for a host name.
    static let needed = 4

    /// Starts `needed` threads that live at the same time, then ends them.
    /// - Throws: `pthread_create`'s error (EAGAIN under a pids limit).
    static func ensureAvailable() throws(CommandFailure) {
        let release = DispatchSemaphore(value: 0)
        let box = Unmanaged.passRetained(SemaphoreBox(release))
        defer { box.release() }
        var started: [pthread_t] = []
        var failure: Int32 = 0
        while started.count < needed {
            var thread = pthread_t()
            let result = pthread_create(&thread, nil, { raw in
                Unmanaged<SemaphoreBox>.fromOpaque(raw!).takeUnretainedValue().semaphore.wait()
                return nil
            }, box.toOpaque())
            guard result == 0 else {
                failure = result
                break
            }
            started.append(thread)
        }
        started.forEach { _ in release.signal() }
        started.forEach { _ = pthread_join($0, nil) }
        if failure != 0 {
            throw .system(function: "pthread_create (threads for libdispatch, which delivers the records)", errno: failure)
        }
    }
}

/// The semaphore the probe threads wait on; the caller keeps it alive until they are joined.
private final class SemaphoreBox: Sendable {
    let semaphore: DispatchSemaphore

    init(_ semaphore: DispatchSemaphore) { self.semaphore = semaphore }
}
