#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An errno from a system call of ours, for the layers to turn into their own errors.
package struct SystemCallFailure: Error, Sendable, Equatable {
    /// The call that failed, as `pipe`.
    package var function: String
    package var errno: Int32

    package init(function: String, errno: Int32) {
        self.function = function
        self.errno = errno
    }
}

/// The package's one wake-up pipe: what a thread asleep in `poll` is woken through (the engine's
/// event loop, a running probe). Non-blocking and close-on-exec at both ends; whoever holds the
/// last reference closes them, so a write never meets a closed reader (no SIGPIPE).
package final class WakePipe: Sendable {
    /// The read end, for `poll`.
    package let reader: Int32
    private let writer: Int32

    /// - Throws: the pipe's errno (descriptors exhausted: EMFILE, ENFILE).
    package init() throws(SystemCallFailure) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SystemCallFailure(function: "pipe", errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        reader = ends[0]
        writer = ends[1]
    }

    /// Makes the read end readable; a full pipe is readable already.
    package func poke() {
        var byte: UInt8 = 1
        _ = write(writer, &byte, 1)
    }

    /// Empties the pipe, so the next `poll` waits again. Allocates nothing.
    package func drain() {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(reader, $0.baseAddress, $0.count) }) > 0 {}
    }

    deinit {
        close(reader)
        close(writer)
    }
}
