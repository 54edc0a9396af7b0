import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The descriptors libdispatch's event loop needs before the command's first signal source or timer.
///
/// libdispatch makes its epoll descriptor, an eventfd, a signalfd and timerfds the first time a
/// source is activated, and traps (SIGILL in `_dispatch_epoll_init`) when it cannot: a process
/// short of descriptors would die by a signal instead of saying why. So `watch`, `wait` and
/// `demo` open and close that many descriptors first and fail with one line if they cannot. (The
/// engine activates no dispatch source: it waits in its own `poll` loop.)
enum DispatchDescriptors {
    /// epoll, eventfd, signalfd and one timerfd.
    static let needed = 4

    /// Opens and closes `needed` descriptors, as pipes. - Throws: their errno (EMFILE, ENFILE).
    static func ensureAvailable() throws(CommandFailure) {
        var opened: [Int32] = []
        defer { opened.forEach { _ = close($0) } }
        while opened.count < needed {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                throw .system(function: "pipe (descriptors for libdispatch's event loop, which waits for signals and timers)", errno: errno)
            }
            opened += ends
        }
    }
}
