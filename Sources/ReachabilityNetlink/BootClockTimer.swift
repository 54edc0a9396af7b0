import ReachabilityModel
import ReachabilitySystem
import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot timer on `CLOCK_BOOTTIME` (a `timerfd`), for a schedule measured in the user's
/// time rather than the machine's running time.
///
/// `poll`'s own timeout, and `DispatchTime`, run on `CLOCK_MONOTONIC`, which stands still while
/// the machine is suspended: a re-probe due in 5 minutes would come 5 minutes after a resume,
/// however long the sleep. A `CLOCK_BOOTTIME` timer that expired during the sleep is readable at
/// once on resume. The descriptor is polled like any other (it is readable once expired) and
/// closed when the timer goes.
package final class BootClockTimer: Sendable {
    /// For `poll`: readable once the timer expired, until `drain`.
    package let descriptor: Int32

    /// - Returns: nil when no timer can be made (out of descriptors, or a kernel without it).
    package init?() {
        let made = timerfd_create(CLOCK_BOOTTIME, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        guard made >= 0 else { return nil }
        descriptor = made
    }

    deinit { Syscalls.close(descriptor) }

    /// Expires once, `delay` from now (an earlier setting is replaced). - Returns: false when the kernel refused.
    @discardableResult
    package func arm(after delay: Duration) -> Bool {
        // A zero `it_value` would disarm: the shortest delay is one nanosecond.
        let nanoseconds = max(1, delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000)
        var setting = itimerspec()
        setting.it_value.tv_sec = Int(nanoseconds / 1_000_000_000)
        setting.it_value.tv_nsec = Int(nanoseconds % 1_000_000_000)
        return timerfd_settime(descriptor, 0, &setting, nil) == 0
    }

    /// Stops the timer; an expiry not yet read is dropped too.
    package func disarm() {
        var setting = itimerspec()
        _ = timerfd_settime(descriptor, 0, &setting, nil)
        drain()
    }

    /// Reads the expiry count, so `poll` waits again.
    package func drain() {
        var expirations: UInt64 = 0
        _ = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
    }
}
