#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the main thread of `watch`, `wait` and `demo` waits while dispatch queues and the
/// library's threads do the work, until one of them calls `exit`.
enum MainThread {
    /// Parks the calling thread for good, in `pause()`, with its signal mask as it was.
    ///
    /// Not `dispatchMain()`: nothing here runs on the main queue, and `dispatchMain()` ends the
    /// main thread with `pthread_exit`, whose forced unwind walks the main thread's stack through
    /// the unwinder's tables: it makes about 0.6 MiB of the binary's `.eh_frame_hdr` and
    /// `.eh_frame` and libgcc's unwinder resident, in a process kept running for hours.
    static func park() -> Never {
        while true {
            pause()
        }
    }
}
