import ReachabilitySystem
/// One question for the kernel that a target needs answered. Targets with equal questions share one lookup.
package enum RouteQuestion: Sendable, Hashable {
    /// The route of a destination (`ip route get`).
    case destination(RouteRequest)
    /// The default route of a family: the route a global destination that no more specific route
    /// covers would take; with an interface, the one leaving by it (`ip route get ... oif IF`).
    case defaultRoute(IPAddress.Family, outputInterface: Int? = nil)

    package var family: IPAddress.Family {
        switch self {
        case .destination(let request): request.destination.family
        case .defaultRoute(let family, _): family
        }
    }
}
