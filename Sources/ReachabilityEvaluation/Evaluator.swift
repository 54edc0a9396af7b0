import ReachabilityModel
#if canImport(Glibc)
import Glibc
#endif

/// Pure functions from kernel state to flags and paths: `semantics.md`, "From the kernel to the flags".
package enum Evaluator {
    /// The kernel questions that `target` needs answered.
    ///
    /// - Returns: nil when the target cannot be asked about at all (an unknown scope interface,
    ///   a local address the host does not own): `evaluate` then gives its reason.
    package static func questions(for target: MonitorTarget, in snapshot: KernelSnapshot,
                          resolution: HostResolution? = nil) -> [RouteQuestion]? {
        // The general path's questions, the most asked of all, are one array for every pass.
        if case .general(let filter) = target, filter.isEmpty { return generalPathQuestions }
        var asked: [RouteQuestion] = []
        // Room for the usual two (a general path's families) at once, rather than grown to them.
        asked.reserveCapacity(2)
        let askable = visitQuestions(for: target, in: snapshot, resolution: resolution) { question in
            asked.append(question)
            return true
        }
        return askable ? asked : nil
    }

    /// What the general path with no interface filter asks: each family's default route.
    private static let generalPathQuestions: [RouteQuestion] = [.defaultRoute(.ipv4), .defaultRoute(.ipv6)]

    /// Whether any question `target` needs answered is one `matches` accepts; false for a target
    /// that cannot be asked about. Builds no array: a turn asks it of every monitor a route
    /// change may reach.
    package static func asksAny(for target: MonitorTarget, in snapshot: KernelSnapshot, resolution: HostResolution? = nil,
                                where matches: (RouteQuestion) -> Bool) -> Bool {
        var found = false
        _ = visitQuestions(for: target, in: snapshot, resolution: resolution) { question in
            found = matches(question)
            return !found
        }
        return found
    }

    /// Hands `body` each question `target` needs answered, in order, while it returns true.
    /// - Returns: false when the target cannot be asked about at all.
    private static func visitQuestions(for target: MonitorTarget, in snapshot: KernelSnapshot, resolution: HostResolution?,
                                       _ body: (RouteQuestion) -> Bool) -> Bool {
        switch target {
        case .general(let filter) where filter.isEmpty:
            _ = body(.defaultRoute(.ipv4)) && body(.defaultRoute(.ipv6))
        case .general(let filter):
            // As if only the allowed interfaces existed: one lookup restricted to each of them.
            let allowed = snapshot.links.values
                .filter { $0.isUp && filter.allows(InterfaceClassifier.type(of: $0)) }
                .map(\.index).sorted()
            for family in [IPAddress.Family.ipv4, .ipv6] {
                for index in allowed where !body(.defaultRoute(family, outputInterface: index)) { return true }
            }
        case .host:
            // Addresses whose %scope names no interface are left out; the rest are asked in the resolver's order.
            for address in resolution?.addresses ?? [] {
                if let question = question(destination: address, source: nil, in: snapshot), !body(question) { return true }
            }
        case .address(let address):
            guard let question = question(destination: address, source: nil, in: snapshot) else { return false }
            _ = body(question)
        case .pair(let local, let remote):
            if let local, !snapshot.owns(local) { return false }
            guard let remote else { return true }
            guard let question = question(destination: remote, source: local, in: snapshot) else { return false }
            _ = body(question)
        }
        return true
    }

    private static func question(destination: IPAddress, source: IPAddress?, in snapshot: KernelSnapshot) -> RouteQuestion? {
        if destination.isUnspecified { return .defaultRoute(destination.family) }
        var outputInterface: Int?
        switch destination.scope {
        case .none: break
        case .index(let index): outputInterface = index
        case .name(let name):
            guard let link = snapshot.link(named: name) else { return nil }
            outputInterface = link.index
        }
        let sameFamilySource = source.flatMap { $0.family == destination.family ? $0 : nil }
        return .destination(RouteRequest(destination: destination, source: sameFamilySource, outputInterface: outputInterface))
    }

    /// The verdict for a target from the best of its answers' verdicts (nil: none).
    private static func verdict(for target: MonitorTarget, folded: RouteVerdict?, answered: Bool,
                                in snapshot: KernelSnapshot) -> RouteVerdict {
        switch target {
        case .pair(let local?, nil):
            // Only a local address: reachable while the host holds it, as the route to it would be `local`.
            guard let holder = snapshot.addresses.first(where: { $0.address.sameBytes(as: local) }) else {
                return .unsatisfied(.localAddressUnavailable)
            }
            return RouteVerdict(flags: [.reachable, .isLocalAddress, .isDirect], reason: nil, interfaceIndex: holder.interfaceIndex, gateways: [])
        case .pair(let local?, _) where !snapshot.owns(local):
            return .unsatisfied(.localAddressUnavailable)
        case .general(let filter) where !filter.isEmpty && !answered:
            return .unsatisfied(.requiredInterfaceUnavailable)
        default:
            break
        }
        let best = folded ?? .noRoute
        if case .general(let filter) = target, !filter.isEmpty, best.rank == 0 {
            return RouteVerdict(flags: best.flags, reason: .requiredInterfaceUnavailable, interfaceIndex: best.interfaceIndex,
                                gateways: best.gateways, metric: best.metric)
        }
        return best
    }

    /// Why the kernel refused a lookup, by its errno: EHOSTUNREACH an `unreachable` route, EACCES a
    /// `prohibit` one, EINVAL a `blackhole` one; ENETUNREACH (no route, and a `throw` route, which
    /// the kernel answers the same) and a failure of the lookup itself are no route.
    package static func reason(forRefusal errno: Int32) -> NetworkPath.UnsatisfiedReason {
        switch errno {
        case EHOSTUNREACH: .unreachableRoute
        case EACCES: .prohibitedRoute
        case EINVAL: .blackholeRoute
        default: .noRoute
        }
    }

    /// One route answer by the table of semantics.md.
    package static func verdict(for answer: RouteAnswer, in snapshot: KernelSnapshot) -> RouteVerdict {
        let route: RouteEntry
        switch answer {
        case .route(let entry): route = entry
        case .failure(let errno): return .unsatisfied(reason(forRefusal: errno))
        }
        switch route.type {
        case .unreachable:
            return .unsatisfied(.unreachableRoute)
        case .prohibit:
            return .unsatisfied(.prohibitedRoute)
        case .blackhole:
            return .unsatisfied(.blackholeRoute)
        case .throw:
            return .noRoute
        case .local, .anycast:
            return RouteVerdict(flags: [.reachable, .isLocalAddress, .isDirect], reason: nil,
                                interfaceIndex: route.outputInterface, gateways: [], metric: route.metric)
        case .unicast, .broadcast, .multicast, .other:
            break
        }
        var verdict = RouteVerdict(flags: [], reason: nil, interfaceIndex: route.outputInterface, gateways: route.gateways,
                                   metric: route.metric)
        let link = route.outputInterface.flatMap { snapshot.links[$0] }
        if let link {
            if !link.isUp {
                verdict.reason = .interfaceDown
                return verdict
            }
            if !link.hasCarrier || link.isDormant || route.isLinkDown {
                verdict.flags = [.reachable, .connectionRequired]
                verdict.reason = .noCarrier
            } else {
                verdict.flags = [.reachable]
            }
            if link.isPointToPoint { verdict.flags.insert(.transientConnection) }
            if InterfaceClassifier.type(of: link) == .cellular { verdict.flags.formUnion([.isWWAN, .transientConnection]) }
        } else {
            // A route over a link the snapshot does not know yet: the kernel's word stands.
            verdict.flags = [.reachable]
        }
        if route.gateways.isEmpty { verdict.flags.insert(.isDirect) }
        return verdict
    }

    /// The path for a verdict.
    ///
    /// - Parameters:
    ///   - verdict: the best verdict, and the best of each family the target covers (for
    ///     `supportsIPv4`/`IPv6`).
    ///   - nameServers: which paths the namespace's name servers serve: `supportsDNS` is true for a
    ///     satisfied path whose interface they serve.
    ///   - preference: the metric of each interface's default route, for the order of `availableInterfaces`.
    package static func path(for verdict: TargetVerdict, in snapshot: KernelSnapshot, nameServers: NameServerScope,
                             preference: [Int: UInt32] = [:], available: [NetworkInterface]? = nil) -> NetworkPath {
        // Never `requiresConnection`: Apple means a path a new connection may activate (a VPN or
        // cellular on demand), and nothing on Linux brings a carrier back because a socket
        // connects. A link without carrier keeps `reachable` + `connectionRequired` in the flags,
        // and its path is unsatisfied with the reason `noCarrier`.
        let best = verdict.best
        let pathStatus: NetworkPath.Status = ReachabilityStatus(flags: best.flags).isReachable ? .satisfied : .unsatisfied
        let link = best.interfaceIndex.flatMap { snapshot.links[$0] }
        // The pass classified every available link once already (`available`); only a link
        // outside that list (loopback, link-local only) is classified here.
        let interface = link.map { link in
            available?.first(where: { $0.index == link.index }) ?? InterfaceClassifier.interface(for: link)
        }
        var path = NetworkPath(
            status: pathStatus,
            unsatisfiedReason: pathStatus == .satisfied ? nil : (best.reason ?? .noRoute),
            flags: best.flags,
            interface: interface,
            availableInterfaces: reordered(available ?? availableInterfaces(ordering: availableLinks(in: snapshot), preference: preference),
                                           first: interface, in: snapshot),
            gateways: best.gateways,
            isExpensive: interface?.isExpensive ?? false,
            isConstrained: interface?.isConstrained ?? false,
            supportsIPv4: verdict.supports(.ipv4),
            supportsIPv6: verdict.supports(.ipv6),
            // A path that carries nothing has no server to ask, whatever resolv.conf names.
            supportsDNS: pathStatus == .satisfied && nameServers.serves(interfaceIndex: interface?.index)
        )
        path.captivePortalAPI = link?.captivePortalAPI
        return path
    }

    /// The links `availableInterfaces` may list, by index: up, with carrier, holding an address
    /// that reaches beyond the link (link-local-only links such as a container's
    /// host-side veth are left out), and not loopback (a loopback interface carries no traffic off the host).
    ///
    /// - Parameter storage: an array to make the list in (emptied first), so a pass made again
    ///   over new links allocates no list.
    package static func availableLinks(in snapshot: KernelSnapshot, reusing storage: consuming [LinkState] = []) -> [LinkState] {
        // A set of indexes pays only with many addresses; a scan of a few allocates nothing, and
        // every pass and link change calls this. Sorted in place: `sorted` would copy.
        let withAddress = snapshot.addresses.count > 64 ? snapshot.indexesWithRoutableAddress : nil
        var links = storage
        links.removeAll(keepingCapacity: true)
        for link in snapshot.links.values where link.isUp && link.hasCarrier && !link.isLoopback {
            let available = withAddress.map { $0.contains(link.index) }
                ?? snapshot.addresses.contains { $0.interfaceIndex == link.index && $0.reachesBeyondLink }
            if available { links.append(link) }
        }
        links.sort { $0.index < $1.index }
        return links
    }

    /// `links` (`availableLinks`) in the order routes would prefer them: by default-route metric, then by
    /// index. `reordered` moves a path's own interface to the front.
    ///
    /// - Parameter preference: each interface's default-route metric; only needed (and only
    ///   asked of the kernel by the engine) when two or more links are available.
    package static func availableInterfaces(ordering links: [LinkState], preference: [Int: UInt32]) -> [NetworkInterface] {
        // One link (the common host) has its order already; `sorted` would still copy it.
        guard links.count > 1 else { return links.map(InterfaceClassifier.interface(for:)) }
        return links
            .sorted { a, b in
                switch (preference[a.index], preference[b.index]) {
                case let (x?, y?) where x != y: return x < y
                case (.some, nil): return true
                case (nil, .some): return false
                default: return a.index < b.index
                }
            }
            .map(InterfaceClassifier.interface(for:))
    }

    /// `available` (ordered with no path interface first) with `first` moved to the front. The list
    /// is returned as it is when nothing moves, so the paths of many targets share one array.
    package static func reordered(_ available: [NetworkInterface], first: NetworkInterface?, in snapshot: KernelSnapshot) -> [NetworkInterface] {
        guard let first, available.first?.index != first.index else { return available }
        if let position = available.firstIndex(where: { $0.index == first.index }) {
            var list = available
            list.insert(list.remove(at: position), at: 0)
            return list
        }
        // Not in the list: loopback, or a link with only link-local addresses,
        // which count when the path uses them.
        guard let link = snapshot.links[first.index], link.isUp, link.isLoopback || link.hasCarrier else { return available }
        return [first] + available
    }

    /// The verdict of a target whose questions were answered (in the order `questions` gave
    /// them; nil questions: it could not be asked about), with the best of each family.
    package static func verdict(for target: MonitorTarget, questions: [RouteQuestion]?, answers: [RouteAnswer],
                                in snapshot: KernelSnapshot) -> TargetVerdict {
        // As many questions as answers, paired in order.
        verdict(for: target, questions: questions.map { Array($0.prefix(answers.count)) }, in: snapshot,
                answered: !answers.isEmpty) { position, _ in answers[position] }
    }

    /// The same, each question's answer given by `answer` (its position and the question): a pass
    /// reads its tables in place, with no array gathered.
    ///
    /// - Parameter answered: whether any answer was asked for (false: none could be).
    package static func verdict(for target: MonitorTarget, questions: [RouteQuestion]?, in snapshot: KernelSnapshot,
                                answered: Bool, answer: (Int, RouteQuestion) -> RouteAnswer) -> TargetVerdict {
        var folded: TargetVerdict
        if let questions {
            // Each answer's verdict once, folded into the best of all and the best of its family.
            let byMetric = !target.isHostName
            var best: RouteVerdict?
            folded = TargetVerdict(best: .noRoute)
            for (position, question) in questions.enumerated() {
                let candidate = verdict(for: answer(position, question), in: snapshot)
                best = RouteVerdict.better(best, candidate, byMetric: byMetric)
                folded[family: question.family] = RouteVerdict.better(folded[family: question.family], candidate)
            }
            folded.best = verdict(for: target, folded: best, answered: answered, in: snapshot)
        } else if case .pair = target {
            folded = TargetVerdict(best: .unsatisfied(.localAddressUnavailable))
        } else {
            folded = TargetVerdict(best: .noRoute)
        }
        if case .pair(let local?, nil) = target {
            // Nothing is asked of the kernel: the held local address speaks for its own family.
            folded[family: local.family] = folded.best
        }
        return folded
    }

    /// Evaluates a target end to end, given the answers to its questions.
    package static func evaluate(_ target: MonitorTarget, questions: [RouteQuestion]?, answers: [RouteAnswer],
                         in snapshot: KernelSnapshot, nameServers: NameServerScope, resolution: HostResolution? = nil,
                         preference: [Int: UInt32] = [:], available: [NetworkInterface]? = nil) -> NetworkPath {
        path(for: target, verdict: verdict(for: target, questions: questions, answers: answers, in: snapshot), in: snapshot,
             nameServers: nameServers, resolution: resolution, preference: preference, available: available)
    }

    /// The path of `target` from its verdict.
    package static func path(for target: MonitorTarget, verdict: TargetVerdict, in snapshot: KernelSnapshot,
                             nameServers: NameServerScope, resolution: HostResolution? = nil,
                             preference: [Int: UInt32] = [:], available: [NetworkInterface]? = nil) -> NetworkPath {
        var path = path(for: verdict, in: snapshot, nameServers: nameServers, preference: preference, available: available)
        if case .general(let filter) = target, !filter.isEmpty {
            // As if only the allowed interfaces existed.
            path.availableInterfaces = path.availableInterfaces.filter { filter.allows($0.type) }
        }
        guard case .host = target else { return path }
        let resolution = resolution ?? HostResolution()
        path.resolvedAddresses = resolution.addresses
        path.resolvedAddressesAreStale = resolution.isStale
        if resolution.addresses.isEmpty {
            path.unsatisfiedReason = resolution.state == .noNameServer ? .noDNSServer : .nameNotResolved
        }
        return path
    }
}
