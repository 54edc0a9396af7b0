import ReachabilitySystem
/// Which route questions a set of route events can affect.
package struct RouteChanges: Sendable, Equatable {
    /// The prefixes of the route events, each once, when they could be read and were few enough.
    /// An array: a drain holds a few prefixes, and every route message adds one, where a set
    /// would allocate and hash on each.
    package private(set) var prefixes: [RoutePrefix] = []
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
        guard !isBroad, !prefixes.contains(prefix) else { return }
        prefixes.append(prefix)
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
            return prefixes.contains { $0.family == family && DefaultRouteProbes.covered(by: $0) }
        }
    }

    /// Equal when they cover the same prefixes, in whatever order the messages came.
    package static func == (lhs: RouteChanges, rhs: RouteChanges) -> Bool {
        lhs.isBroad == rhs.isBroad && lhs.prefixes.count == rhs.prefixes.count && lhs.prefixes.allSatisfy(rhs.prefixes.contains)
    }

    package init(isBroad: Bool = false) {
        self.isBroad = isBroad
    }
}
