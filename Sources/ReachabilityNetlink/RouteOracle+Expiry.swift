import ReachabilityModel
import ReachabilitySystem
/// The expiry of the routes in plain answers.
///
/// The kernel reports an IPv6 route's expiry only in a FIB-match answer: a plain lookup answers
/// with the per-CPU copy of the route, whose `rta_expires` is 0 (`RouteMessageParser.expiry`).
/// So an IPv6 unicast answer is asked again with `RTM_F_FIB_MATCH`, pipelined with the others,
/// and takes the expiry of the FIB entry it came from. IPv4 routes never expire.
extension RouteOracle {
    /// `answers` (to `requests`, in order), each IPv6 unicast route with its FIB entry's expiry.
    package func withExpiries(_ answers: [RouteAnswer], for requests: [RouteRequest]) -> [RouteAnswer] {
        var positions: [Int] = []
        for position in requests.indices where Self.mayExpire(answers[position], asked: requests[position]) {
            positions.append(position)
        }
        guard !positions.isEmpty else { return answers }
        let fibRequests = positions.map { position in
            var request = requests[position]
            request.fibMatch = true
            return request
        }
        let matches = fibRequests.count == 1 ? [socket.lookup(fibRequests[0])] : socket.lookup(fibRequests)
        var result = answers
        for (position, match) in zip(positions, matches) {
            guard case .route(var entry) = result[position], case .route(let fibEntry) = match,
                  let expiry = fibEntry.expiresIn, Self.isSameRoute(fibEntry, as: entry) else { continue }
            entry.expiresIn = expiry
            result[position] = .route(entry)
        }
        return result
    }

    /// One answer, with its route's expiry.
    package func withExpiry(_ answer: RouteAnswer, for request: RouteRequest) -> RouteAnswer {
        guard Self.mayExpire(answer, asked: request) else { return answer }
        return withExpiries([answer], for: [request])[0]
    }

    private static func mayExpire(_ answer: RouteAnswer, asked request: RouteRequest) -> Bool {
        guard request.destination.family == .ipv6, !request.fibMatch, case .route(let entry) = answer else { return false }
        return entry.type == .unicast && entry.expiresIn == nil
    }

    /// Whether the FIB entry is the one the plain answer's next hop came from: a change between
    /// the two lookups must not lend one route's expiry to another.
    private static func isSameRoute(_ fibEntry: RouteEntry, as entry: RouteEntry) -> Bool {
        guard fibEntry.outputInterface == nil || fibEntry.outputInterface == entry.outputInterface else { return false }
        guard let gateway = entry.gateways.first else { return fibEntry.gateways.isEmpty }
        return fibEntry.gateways.contains(gateway)
    }
}
