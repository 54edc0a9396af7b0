import ReachabilityModel
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// The places where setting up an engine can fail for want of a resource, and a switch for tests
/// to make one of them fail as if the resource were exhausted: the Netlink layer's seam file, the
/// one file of this target that holds `#if DEBUG`.
///
/// Each point sits where the resource is taken, after the ones taken before it, so an injected
/// failure runs the same cleanup a real one would, through libnl's own (asserting) free functions.
/// The switch (`arm`) is compiled into debug builds (the tests) only; a release build's
/// `injected(at:)` answers nil, inlined where the resource is taken. In debug builds it is off
/// unless a test arms it: one lock taken per point, in setup only.
package enum SetupPoint: String, CaseIterable, Sendable {
    /// The event socket, after its libnl socket was allocated.
    case eventSocket = "event socket"
    /// The event socket, after its cache manager was made (both netlink descriptors open).
    case eventManager = "event socket cache manager"
    /// The event socket, after the link cache was filled.
    case linkCache = "link cache"
    /// The event socket, after the address cache was filled.
    case addressCache = "address cache"
    /// The lookup socket, after it connected.
    case lookupSocket = "route lookup socket"
    /// The engine's loop's wake-up pipe.
    case wakePipe = "loop wake-up pipe"
    /// The engine's loop's thread.
    case waiterThread = "loop thread"
    /// The inotify descriptor that watches the resolver's configuration.
    case configurationWatch = "resolver configuration inotify"
    /// The descriptor (inotify or pidfd) that watches for the namespace's disappearance.
    case vanishWatch = "namespace vanish watch"
}

package enum SetupFaults {
    #if DEBUG
    /// The point that fails next, and the errno it fails with; cleared when it fires.
    private static let armed = LockedState<(point: SetupPoint, errno: Int32)?>(nil)

    /// Makes `point` fail once with `errno`, the next time setup reaches it. For tests.
    package static func arm(_ point: SetupPoint, errno: Int32 = EMFILE) {
        armed.withLock { $0 = (point, errno) }
    }

    /// Clears an armed failure that did not fire.
    package static func disarm() {
        armed.withLock { $0 = nil }
    }

    #endif

    /// The errno `point` is to fail with now, if a test armed it (and disarms it); nil in a
    /// release build.
    @inline(__always)
    package static func injected(at point: SetupPoint) -> Int32? {
        #if DEBUG
        armed.withLock { armed in
            guard let current = armed, current.point == point else { return nil }
            armed = nil
            return current.errno
        }
        #else
        nil
        #endif
    }

    /// Throws the injected failure of `point`, naming the resource.
    @inline(__always)
    package static func trip(_ point: SetupPoint) throws(NetlinkError) {
        if let code = injected(at: point) { throw .system(point.rawValue, errno: code) }
    }
}
