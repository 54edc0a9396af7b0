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
/// The package's wake-up pipe (`WakePipe`), polled beside the probe's socket, so a cancel ends a
/// probe at once instead of at its deadline, and the probe thread never sleeps on anything it
/// cannot be woken from.
package final class ProbeSignal: Sendable {
    private let pipe: WakePipe
    private let cancelled = Atomic<Bool>(false)

    /// - Returns: nil when no pipe can be made (out of descriptors: no probe starts).
    package init?() {
        guard let pipe = try? WakePipe() else { return nil }
        self.pipe = pipe
    }

    /// The read end, for `poll`.
    package var descriptor: Int32 { pipe.reader }

    package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    package func cancel() {
        cancelled.store(true, ordering: .releasing)
        wake()
    }

    package func wake() {
        pipe.poke()
    }

    /// Empties the pipe, so the next `poll` waits again.
    package func drain() {
        pipe.drain()
    }
}

extension Duration {
    /// A `poll` timeout covering this duration: whole milliseconds, rounded up, so a wait never
    /// ends just before its deadline and spins.
    package var pollMilliseconds: Int32 {
        Int32(clamping: components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 + 1)
    }
}
