import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Wakes a probe's `poll`: when the probe is cancelled, and when its name's resolution finished.
///
/// One pipe, polled beside the probe's socket, so a cancel ends a probe at once instead of at
/// its deadline, and the probe thread never sleeps on anything it cannot be woken from.
package final class ProbeSignal: Sendable {
    /// The read end, for `poll`.
    package let descriptor: Int32
    private let writeEnd: Int32
    private let cancelled = Atomic<Bool>(false)

    /// - Returns: nil when no pipe can be made (out of descriptors: no probe starts).
    package init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    package func cancel() {
        cancelled.store(true, ordering: .releasing)
        wake()
    }

    package func wake() {
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// Empties the pipe, so the next `poll` waits again.
    package func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) > 0 {}
    }
}

extension Duration {
    /// A `poll` timeout covering this duration: whole milliseconds, rounded up, so a wait never
    /// ends just before its deadline and spins.
    package var pollMilliseconds: Int32 {
        Int32(clamping: components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 + 1)
    }
}
