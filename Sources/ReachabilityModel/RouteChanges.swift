import ReachabilitySystem
/// Which route questions a set of route events can affect.
package struct RouteChanges: Sendable, Equatable {
    /// The prefixes of the route events, when they could be read and were few enough.
    package var prefixes: Set<RoutePrefix> = []
    /// A change that can move any route: a policy rule, a nexthop object, too many or unreadable route events.
    package var isBroad: Bool = false

    package var isEmpty: Bool { prefixes.isEmpty && !isBroad }

    /// Whether the default route of a family may have moved (and with it every interface's preference).
    package var affectsDefaultRoutes: Bool {
        affects(.defaultRoute(.ipv4)) || affects(.defaultRoute(.ipv6))
    }

    /// More than this many distinct prefixes in one drain count as a broad change.
    package static let prefixLimit = 256

    package mutating func note(_ prefix: RoutePrefix) {
        guard !isBroad else { return }
        prefixes.insert(prefix)
        if prefixes.count > Self.prefixLimit {
            isBroad = true
            prefixes = []
        }
    }

    /// Adds what `other` can affect.
    package mutating func formUnion(_ other: RouteChanges) {
        if other.isBroad { isBroad = true }
        for prefix in other.prefixes { note(prefix) }
    }

    /// Whether the answer to `question` may have changed.
    package func affects(_ question: RouteQuestion) -> Bool {
        if isBroad { return true }
        switch question {
        case .destination(let request):
            return prefixes.contains { $0.contains(request.destination) }
        case .defaultRoute(let family, _):
            // Found through probe destinations: any prefix covering a probe may change the answer.
            let probes = DefaultRouteProbes.all[family] ?? []
            return prefixes.contains { prefix in probes.contains(where: prefix.contains) }
        }
    }

    package init(prefixes: Set<RoutePrefix> = [], isBroad: Bool = false) {
        self.prefixes = prefixes
        self.isBroad = isBroad
    }
}
