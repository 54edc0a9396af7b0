import ReachabilityModel
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The route's expiry in an RTM_NEWROUTE answer.
///
/// The kernel fills `rta_expires` of `struct rta_cacheinfo` (`rtnl_put_cacheinfo`) with the
/// jiffies left, converted to clock ticks (`jiffies_to_clock_t`: USER_HZ, what
/// `sysconf(_SC_CLK_TCK)` says), and only for routes with `RTF_EXPIRES`. A plain lookup answers
/// with the per-CPU copy of the route, whose expiry is 0: only a FIB-match answer carries the
/// FIB entry's (measured on 6.18: `ip -6 route get fibmatch` shows `expires`, the plain one not).
extension RouteMessageParser {
    /// Clock ticks per second of `rta_expires`.
    package static let ticksPerSecond: Int64 = {
        let ticks = Int64(sysconf(Int32(_SC_CLK_TCK)))
        return ticks > 0 ? ticks : 100
    }()

    /// The time left in an `rta_cacheinfo` attribute; nil when the route does not expire (0) or
    /// has expired already (negative: a lookup skips such a route, but a dump still lists it).
    package static func expiry(_ payload: UnsafeRawBufferPointer, _ range: Range<Int>) -> Duration? {
        // rta_clntref, rta_lastuse, then rta_expires (signed).
        guard range.count >= 12 else { return nil }
        let ticks = Int64(payload.loadUnaligned(fromByteOffset: range.lowerBound + 8, as: Int32.self))
        guard ticks > 0 else { return nil }
        return .milliseconds(ticks * 1000 / ticksPerSecond)
    }
}
