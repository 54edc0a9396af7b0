import CNetlink
import ReachabilityModel
#if canImport(Glibc)
import Glibc
#endif

/// The destinations whose route events reach the engine: the event socket's filter
/// (`RouteEventFilter`) drops, in the kernel, a route message whose prefix covers none of them.
///
/// The default-route probes are always watched. A destination is added before the kernel is first
/// asked about it (`RouteOracle`), so every answer the engine holds is watched from before it was
/// asked: a route that could move it wakes the engine. Destinations stay watched until the engine
/// narrows the watch to what its questions still ask (`narrow(to:)`). Past `capacity` destinations,
/// or if the kernel refuses the program, every route message passes, as without a filter.
///
/// The engine's loop thread's alone, like the socket: runtime exclusivity checks are left out.
package final class RouteEventWatch {
    /// Beyond this many destinations (and the probes) the filter lets every route message through:
    /// the program grows by six instructions an IPv4 destination and twenty-one an IPv6 one, and
    /// the kernel charges it to the socket's option memory.
    package static let capacity = 64

    private let descriptor: Int32
    @exclusivity(unchecked) private(set) var destinations: Set<IPAddress> = []
    /// Every route message passes: too many destinations, or no program attached.
    @exclusivity(unchecked) package private(set) var passesEverything = false

    package init(descriptor: Int32) {
        self.descriptor = descriptor
        attach()
    }

    /// How many destinations are watched besides the probes.
    package var count: Int { destinations.count }

    /// Watches `destination` from now on, before it is asked about.
    package func include(_ destination: IPAddress) {
        guard !passesEverything, !destinations.contains(destination) else { return }
        destinations.insert(destination)
        attach()
    }

    /// Watches `destinations` alone (and the probes): the engine no longer holds an answer about
    /// any other. Also ends `passesEverything` when they are few enough.
    package func narrow(to destinations: Set<IPAddress>) {
        guard destinations != self.destinations || passesEverything else { return }
        self.destinations = destinations
        passesEverything = false
        attach()
    }

    /// Attaches the program for the watched destinations, or lets everything through.
    private func attach() {
        guard destinations.count <= Self.capacity,
              var program = RouteEventFilter.program(watching: DefaultRouteProbes.ipv4 + DefaultRouteProbes.ipv6 + destinations),
              program.count <= Int(UInt16.max) else {
            return passEverything()
        }
        let attached = program.withUnsafeMutableBufferPointer {
            CNetlink_attachFilter(descriptor, $0.baseAddress, UInt16($0.count))
        }
        if attached != 0 { passEverything() }
    }

    private func passEverything() {
        passesEverything = true
        destinations = []
        _ = CNetlink_detachFilter(descriptor)
    }
}
