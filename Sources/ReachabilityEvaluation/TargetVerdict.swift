import ReachabilityModel

/// The kernel's answers for one target, folded: the best verdict, and the best of each family
/// (for `supportsIPv4` and `supportsIPv6`). A target's path is built from it and the pass's
/// links, order and name servers (`Evaluator.path(for:verdict:...)`).
package struct TargetVerdict: Equatable {
    package var best: RouteVerdict
    package var ipv4: RouteVerdict?
    package var ipv6: RouteVerdict?

    package init(best: RouteVerdict, ipv4: RouteVerdict? = nil, ipv6: RouteVerdict? = nil) {
        self.best = best
        self.ipv4 = ipv4
        self.ipv6 = ipv6
    }

    package subscript(family family: IPAddress.Family) -> RouteVerdict? {
        get { family == .ipv4 ? ipv4 : ipv6 }
        set { if family == .ipv4 { ipv4 = newValue } else { ipv6 = newValue } }
    }

    /// Whether the family's best verdict is reachable.
    package func supports(_ family: IPAddress.Family) -> Bool {
        self[family: family].map { ReachabilityStatus(flags: $0.flags).isReachable } ?? false
    }
}

/// What a path shows of a target's verdict, as one fixed-size value compared whole: flags, why
/// not, the output link, the gateway, the families it reaches, and the pass it was made in.
///
/// Two equal stamps make equal paths: within one pass (`EvaluationPass.epoch`) the links, their
/// order and the name servers are the same, and the path is made from them and this. A turn
/// whose stamp did not move builds no path (`EvaluationPass.stamp(of:for:)`).
package struct PathVerdict: Hashable, Sendable {
    private var flags: UInt32
    private var reason: NetworkPath.UnsatisfiedReason?
    private var interfaceIndex: Int?
    private var gateway: IPAddress?
    private var supportsIPv4: Bool
    private var supportsIPv6: Bool
    private var epoch: UInt64

    /// nil when the verdict does not fit (a route of several gateways): its path is always built.
    package init?(_ verdict: TargetVerdict, epoch: UInt64) {
        guard verdict.best.gateways.count <= 1 else { return nil }
        flags = verdict.best.flags.rawValue
        reason = verdict.best.reason
        interfaceIndex = verdict.best.interfaceIndex
        gateway = verdict.best.gateways.first
        supportsIPv4 = verdict.supports(.ipv4)
        supportsIPv6 = verdict.supports(.ipv6)
        self.epoch = epoch
    }
}
