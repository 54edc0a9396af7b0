import ReachabilityModel

/// What one route answer means for a packet: flags, why not, and where it leaves.
package struct RouteVerdict: Sendable, Equatable {
    package var flags: ReachabilityFlags
    package var reason: NetworkPath.UnsatisfiedReason?
    package var interfaceIndex: Int?
    package var gateways: [IPAddress]
    package var metric: UInt32 = 0

    package static let noRoute = RouteVerdict(flags: [], reason: .noRoute, interfaceIndex: nil, gateways: [])

    package static func unsatisfied(_ reason: NetworkPath.UnsatisfiedReason) -> RouteVerdict {
        RouteVerdict(flags: [], reason: reason, interfaceIndex: nil, gateways: [])
    }

    /// Better verdicts first: reachable, then reachable with a connection required, then nothing.
    package var rank: Int {
        switch ReachabilityStatus(flags: flags) {
        case .reachableViaWiFi, .reachableViaWWAN: 2
        default: flags.contains(.reachable) ? 1 : 0
        }
    }

    /// The best of several verdicts: highest rank, then (with `byMetric`) lowest metric, then the
    /// earliest; among verdicts of no flags, a route that refused (an `unreachable`, `prohibit`
    /// or `blackhole` route, an interface set down) before no route at all, since it says more.
    ///
    /// - Parameter byMetric: true where the verdicts are routes competing for the same traffic
    ///   (the general path's interfaces and families); false for a host name's addresses, whose
    ///   ties go to the resolver's order.
    package static func best(_ verdicts: [RouteVerdict], byMetric: Bool = true) -> RouteVerdict? {
        var best: RouteVerdict?
        for verdict in verdicts { best = better(best, verdict, byMetric: byMetric) }
        return best
    }

    /// `best([current, verdict])` without the array: the evaluation of every change folds with it.
    package static func better(_ current: RouteVerdict?, _ verdict: RouteVerdict, byMetric: Bool = true) -> RouteVerdict {
        guard let current else { return verdict }
        let betterMetric = byMetric && verdict.rank > 0 && verdict.metric < current.metric
        let saysMore = verdict.rank == 0 && current.reason == .noRoute && verdict.reason != nil && verdict.reason != .noRoute
        return verdict.rank > current.rank || (verdict.rank == current.rank && (betterMetric || saysMore)) ? verdict : current
    }
}
