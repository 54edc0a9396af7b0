#if canImport(Glibc)
import Glibc
#endif

/// Answers the route questions of targets with RTM_GETROUTE round trips.
///
/// For the default route it asks, with `RTM_F_FIB_MATCH`, which FIB entry a few global probe
/// destinations match, and takes the first probe that only a default route (prefix length 0, or
/// the /1 halves that VPNs install) covers; its plain lookup is the answer. A probe the kernel
/// refuses (an `unreachable` default, no default) is remembered and the next one tried, so a more
/// specific `unreachable` route for one probe does not hide a working default. No packet is sent.
struct RouteOracle {
    /// Global unicast destinations, far apart, that test networks and LANs rarely route specifically.
    static let probes: [IPAddress.Family: [IPAddress]] = [
        .ipv4: ["8.8.8.8", "1.1.1.1", "208.67.222.222"].map { try! IPAddress($0) },
        .ipv6: ["2001:4860:4860::8888", "2606:4700:4700::1111", "2620:119:35::35"].map { try! IPAddress($0) },
    ]

    let socket: RouteLookupSocket

    func answer(_ question: RouteQuestion) -> RouteAnswer {
        switch question {
        case .destination(let request):
            return socket.lookup(request)
        case .defaultRoute(let family, let outputInterface):
            return defaultRoute(family, outputInterface: outputInterface)
        }
    }

    /// With an output interface, only a FIB entry whose next hop leaves by it counts: IPv4 would
    /// otherwise answer a lookup restricted to an interface without a route by assuming the
    /// destination is on-link there.
    private func defaultRoute(_ family: IPAddress.Family, outputInterface: Int?) -> RouteAnswer {
        var firstRefusal: RouteAnswer?
        var firstSpecific: IPAddress?
        for probe in Self.probes[family] ?? [] {
            var match = socket.lookup(RouteRequest(destination: probe, outputInterface: outputInterface, fibMatch: true))
            if let outputInterface, case .route(let entry) = match, entry.outputInterface != outputInterface {
                match = .failure(errno: ENETUNREACH)
            }
            switch match {
            case .failure:
                if firstRefusal == nil { firstRefusal = match }
            case .route(let entry) where entry.prefixLength <= 1:
                return plainLookup(probe, outputInterface: outputInterface, linkDown: entry.isLinkDown)
            case .route:
                if firstSpecific == nil { firstSpecific = probe }
            }
        }
        if let firstRefusal { return firstRefusal }
        // Every probe is covered by a more specific route: that is where global traffic goes.
        if let firstSpecific { return plainLookup(firstSpecific, outputInterface: outputInterface, linkDown: false) }
        return .failure(errno: ENETUNREACH)
    }

    /// The resolved route (the chosen next hop of a multipath route), with the FIB entry's linkdown mark.
    private func plainLookup(_ probe: IPAddress, outputInterface: Int?, linkDown: Bool) -> RouteAnswer {
        let answer = socket.lookup(RouteRequest(destination: probe, outputInterface: outputInterface))
        guard case .route(var entry) = answer else { return answer }
        entry.prefixLength = 0
        entry.isLinkDown = entry.isLinkDown || linkDown
        return .route(entry)
    }
}
