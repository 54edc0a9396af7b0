/// The destination prefix of a route that changed, as a route event names it (RTA_DST/dst_len).
///
/// A route added or removed for a prefix can change the route of a destination only inside that
/// prefix, so the engine asks the kernel again only for the targets the prefix covers.
struct RoutePrefix: Sendable, Hashable {
    var family: IPAddress.Family
    /// The prefix's bytes in network order (as many as the family has; bits past `length` ignored).
    var bytes: [UInt8]
    var length: Int

    /// Whether `address` lies inside the prefix (scope ignored).
    func contains(_ address: IPAddress) -> Bool {
        guard address.family == family else { return false }
        var remaining = min(length, family.byteCount * 8)
        var index = 0
        while remaining > 0 {
            guard index < bytes.count, index < address.bytes.count else { return false }
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if bytes[index] & mask != address.bytes[index] & mask { return false }
            remaining -= 8
            index += 1
        }
        return true
    }
}

/// Which route questions a set of route events can affect.
struct RouteChanges: Sendable, Equatable {
    /// The prefixes of the route events, when they could be read and were few enough.
    var prefixes: Set<RoutePrefix> = []
    /// A change that can move any route: a policy rule, a nexthop object, too many or unreadable route events.
    var isBroad = false

    var isEmpty: Bool { prefixes.isEmpty && !isBroad }

    /// Whether the default route of a family may have moved (and with it every interface's preference).
    var affectsDefaultRoutes: Bool {
        affects(.defaultRoute(.ipv4)) || affects(.defaultRoute(.ipv6))
    }

    /// More than this many distinct prefixes in one drain count as a broad change.
    static let prefixLimit = 256

    mutating func note(_ prefix: RoutePrefix) {
        guard !isBroad else { return }
        prefixes.insert(prefix)
        if prefixes.count > Self.prefixLimit {
            isBroad = true
            prefixes = []
        }
    }

    /// Whether the answer to `question` may have changed.
    func affects(_ question: RouteQuestion) -> Bool {
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
}
