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
/// once on resume. The descriptor is polled like any other (it is readable once expired).
///
/// Functions over a bare descriptor, not an object that closes it: the engine's loop keeps one
/// such clock for every timer of its own on it (a connectivity prober's re-probe), armed at the
/// earliest of their deadlines, and closes it when its thread ends.
package enum BootClockTimer {
    /// A new, disarmed timer; the caller owns the descriptor.
    /// - Returns: nil when no timer can be made (out of descriptors, or a kernel without it).
    package static func make() -> Int32? {
        let made = timerfd_create(CLOCK_BOOTTIME, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        return made >= 0 ? made : nil
    }

    /// Expires once, `delay` from now (an earlier setting is replaced). - Returns: false when the kernel refused.
    @discardableResult
    package static func arm(_ descriptor: Int32, after delay: Duration) -> Bool {
        // A zero `it_value` would disarm: the shortest delay is one nanosecond.
        let nanoseconds = max(1, delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000)
        var setting = itimerspec()
        setting.it_value.tv_sec = Int(nanoseconds / 1_000_000_000)
        setting.it_value.tv_nsec = Int(nanoseconds % 1_000_000_000)
        return timerfd_settime(descriptor, 0, &setting, nil) == 0
    }

    /// The boot clock now, in nanoseconds.
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Arms `descriptor` to expire at `deadline` (`now()`'s nanoseconds), or disarms it for nil.
    package static func arm(_ descriptor: Int32, at deadline: UInt64?) {
        var setting = itimerspec()
        if let deadline {
            // A zero `it_value` would disarm: a deadline of 0 is one nanosecond after boot.
            let at = max(1, deadline)
            setting.it_value.tv_sec = Int(at / 1_000_000_000)
            setting.it_value.tv_nsec = Int(at % 1_000_000_000)
        }
        _ = timerfd_settime(descriptor, Int32(TFD_TIMER_ABSTIME), &setting, nil)
    }

    /// Stops the timer; an expiry not yet read is dropped too.
    package static func disarm(_ descriptor: Int32) {
        var setting = itimerspec()
        _ = timerfd_settime(descriptor, 0, &setting, nil)
        drain(descriptor)
    }

    /// Reads the expiry count, so `poll` waits again.
    package static func drain(_ descriptor: Int32) {
        var expirations: UInt64 = 0
        _ = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
    }
}
