import ReachabilitySystem
/// Which route questions a set of route events can affect.
package struct RouteChanges: Sendable, Equatable {
    /// The prefixes of the route events, each once, when they could be read and were few enough:
    /// the first inline and the rest in an array, so a drain of one route message (a flap, a route
    /// that moves no answer) allocates nothing. An array, not a set: a drain holds a few prefixes,
    /// and every route message adds one, where a set would allocate and hash on each.
    private var first: RoutePrefix?
    private var more: [RoutePrefix] = []
    /// A change that can move any route: a policy rule, a nexthop object, too many or unreadable route events.
    package var isBroad: Bool = false

    package var isEmpty: Bool { first == nil && !isBroad }

    private var count: Int { (first == nil ? 0 : 1) + more.count }

    private func containsPrefix(where matches: (RoutePrefix) -> Bool) -> Bool {
        guard let first else { return false }
        return matches(first) || more.contains(where: matches)
    }

    /// Whether the default route of a family may have moved (and with it every interface's preference).
    package var affectsDefaultRoutes: Bool {
        affects(.defaultRoute(.ipv4)) || affects(.defaultRoute(.ipv6))
    }

    /// More than this many distinct prefixes in one drain count as a broad change.
    package static let prefixLimit = 256

    package mutating func note(_ prefix: RoutePrefix) {
        guard !isBroad, !containsPrefix(where: { $0 == prefix }) else { return }
        if first == nil { first = prefix } else { more.append(prefix) }
        if count > Self.prefixLimit {
            isBroad = true
            first = nil
            more = []
        }
    }

    /// Adds what `other` can affect.
    package mutating func formUnion(_ other: RouteChanges) {
        if other.isBroad { isBroad = true }
        if let prefix = other.first { note(prefix) }
        for prefix in other.more { note(prefix) }
    }

    /// Whether the answer to `question` may have changed.
    package func affects(_ question: RouteQuestion) -> Bool {
        if isBroad { return true }
        switch question {
        case .destination(let request):
            return containsPrefix { $0.contains(request.destination) }
        case .defaultRoute(let family, _):
            // Found through probe destinations: any prefix covering a probe may change the answer.
            return containsPrefix { $0.family == family && DefaultRouteProbes.covered(by: $0) }
        }
    }

    /// Equal when they cover the same prefixes, in whatever order the messages came.
    package static func == (lhs: RouteChanges, rhs: RouteChanges) -> Bool {
        lhs.isBroad == rhs.isBroad && lhs.count == rhs.count
            && !lhs.containsPrefix { prefix in !rhs.containsPrefix { $0 == prefix } }
    }

    package init(isBroad: Bool = false) {
        self.isBroad = isBroad
    }
}
