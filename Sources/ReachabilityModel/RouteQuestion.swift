import ReachabilitySystem
/// One question for the kernel that a target needs answered. Targets with equal questions share one lookup.
package enum RouteQuestion: Sendable, Hashable {
    /// The route of a destination (`ip route get`).
    case destination(RouteRequest)
    /// The default route of a family: the route a global destination that no more specific route
    /// covers would take; with an interface, the one leaving by it (`ip route get ... oif IF`).
    case defaultRoute(IPAddress.Family, outputInterface: Int? = nil)

    /// One word for a default route's question, the request's words for a destination's: the
    /// turn's tables (the pass's answers, the book, the expiries) are keyed by questions.
    package func hash(into hasher: inout Hasher) {
        switch self {
        case .defaultRoute(let family, let outputInterface):
            // Interface indexes are positive: nil and each index give distinct words.
            hasher.combine(UInt64(UInt32(truncatingIfNeeded: outputInterface ?? 0)) << 2 | (family == .ipv4 ? 1 : 2))
        case .destination(let request):
            hasher.combine(request)
        }
    }

    package var family: IPAddress.Family {
        switch self {
        case .destination(let request): request.destination.family
        case .defaultRoute(let family, _): family
        }
    }
}
