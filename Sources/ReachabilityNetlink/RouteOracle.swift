import ReachabilityModel
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// Answers the route questions of targets with RTM_GETROUTE round trips.
///
/// The default route (the zero address) is "the route a global destination that no more specific
/// route covers would take". The engine keeps no route table, so it finds such a destination by
/// asking, with `RTM_F_FIB_MATCH`, which FIB entry each of a few probe destinations matches:
///
/// - the first probe whose entry is a default route (prefix 0, or one of the /1 halves that VPNs
///   install instead) gives the answer: the entry itself when it has one next hop, else a plain
///   lookup of the probe (the next hop the kernel chooses);
/// - ENETUNREACH means no entry covers the probe, so no default route exists: no route;
/// - a refusal by an `unreachable`, `blackhole` or `prohibit` entry may come from a default of that
///   type or from a specific route over the probe: remembered, and the next probe is tried;
/// - a probe covered by a more specific route is skipped.
///
/// With every probe refused the first refusal is the answer; with every probe covered by specific
/// routes there is no default route. The probes are `DefaultRouteProbes`. No packet is sent.
package struct RouteOracle {
    package let socket: RouteLookupSocket
    /// The event socket's filter, told of each destination before the kernel is asked about it:
    /// from then on a route that can move the answer wakes the engine.
    package let watch: RouteEventWatch?

    /// The answers to `questions`, in order: the destinations asked together (one `sendmsg` for
    /// many, when there are several), the default routes one by one (their probes go in turn).
    package func answers(_ questions: [RouteQuestion]) -> [RouteAnswer] {
        var found: [RouteAnswer] = []
        found.reserveCapacity(questions.count)
        answer(questions) { _, answer in found.append(answer) }
        return found
    }

    /// Hands `body` the answer to each of `questions`, in order, with its position: as `answers`,
    /// with no array of answers made when fewer than two destinations are asked (a turn's few).
    package func answer(_ questions: [RouteQuestion], _ body: (Int, RouteAnswer) -> Void) {
        // Fewer than two destinations share no round trip: asked one by one, with no tables.
        var destinationCount = 0
        for case .destination in questions { destinationCount += 1 }
        guard destinationCount > 1 else {
            for (position, question) in questions.enumerated() { body(position, answer(question)) }
            return
        }
        for (position, answer) in askedTogether(questions).enumerated() { body(position, answer) }
    }

    /// The answers to `questions` with their destinations asked in one `sendmsg`.
    private func askedTogether(_ questions: [RouteQuestion]) -> [RouteAnswer] {
        var found = [RouteAnswer?](repeating: nil, count: questions.count)
        var destinations: [(position: Int, request: RouteRequest)] = []
        for (position, question) in questions.enumerated() {
            if case .destination(let request) = question {
                watch?.include(request.destination)
                destinations.append((position, request))
            }
        }
        let requests = destinations.map(\.request)
        for (destination, answer) in zip(destinations, withExpiries(socket.lookup(requests), for: requests)) {
            found[destination.position] = answer
        }
        return questions.indices.map { found[$0] ?? answer(questions[$0]) }
    }

    package func answer(_ question: RouteQuestion) -> RouteAnswer {
        switch question {
        case .destination(let request):
            watch?.include(request.destination)
            return withExpiry(socket.lookup(request), for: request)
        case .defaultRoute(let family, let outputInterface):
            return defaultRoute(family, outputInterface: outputInterface)
        }
    }

    /// With an output interface, only a FIB entry whose next hop leaves by it counts: IPv4 would
    /// otherwise answer a lookup restricted to an interface without a route by assuming the
    /// destination is on-link there.
    private func defaultRoute(_ family: IPAddress.Family, outputInterface: Int?) -> RouteAnswer {
        var firstRefusal: RouteAnswer?
        for probe in DefaultRouteProbes.of(family) {
            var match = socket.lookup(RouteRequest(destination: probe, outputInterface: outputInterface, fibMatch: true))
            if let outputInterface, case .route(let entry) = match, entry.outputInterface != outputInterface {
                match = .failure(errno: ENETUNREACH)
            }
            switch match {
            case .failure(let code) where code == ENETUNREACH:
                return match
            case .failure:
                if firstRefusal == nil { firstRefusal = match }
            case .route(var entry) where entry.prefixLength <= 1:
                // A single next hop is the one a packet takes: the FIB entry says it all. Only a
                // multipath entry (or one whose next hop is a nexthop object the kernel does not
                // expand) needs the plain lookup that picks the hop.
                guard entry.outputInterface != nil, entry.gateways.count <= 1 else {
                    return plainLookup(probe, outputInterface: outputInterface, fibEntry: entry)
                }
                entry.prefixLength = 0
                return .route(entry)
            case .route:
                continue
            }
        }
        return firstRefusal ?? .failure(errno: ENETUNREACH)
    }

    /// The resolved route (the chosen next hop of a multipath route), with the FIB entry's
    /// linkdown mark and metric (IPv4's resolved answer carries no `RTA_PRIORITY`).
    private func plainLookup(_ probe: IPAddress, outputInterface: Int?, fibEntry: RouteEntry) -> RouteAnswer {
        let answer = socket.lookup(RouteRequest(destination: probe, outputInterface: outputInterface))
        guard case .route(var entry) = answer else { return answer }
        entry.prefixLength = 0
        entry.isLinkDown = entry.isLinkDown || fibEntry.isLinkDown
        entry.metric = fibEntry.metric
        entry.expiresIn = fibEntry.expiresIn
        return .route(entry)
    }

    /// - Parameter watch: the event socket's filter, when the answers are kept and followed; nil
    ///   for answers read once.
    package init(socket: RouteLookupSocket, watch: RouteEventWatch? = nil) {
        self.socket = socket
        self.watch = watch
    }
}
