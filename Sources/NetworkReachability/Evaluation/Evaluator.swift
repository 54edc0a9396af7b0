/// What one route answer means for a packet: flags, why not, and where it leaves.
struct RouteVerdict: Sendable, Equatable {
    var flags: ReachabilityFlags
    var reason: NetworkPath.UnsatisfiedReason?
    var interfaceIndex: Int?
    var gateways: [IPAddress]

    static let noRoute = RouteVerdict(flags: [], reason: .noRoute, interfaceIndex: nil, gateways: [])

    /// Better verdicts first: reachable, then reachable with a connection required, then nothing.
    var rank: Int {
        switch ReachabilityStatus(flags: flags) {
        case .reachableViaWiFi, .reachableViaWWAN: 2
        default: flags.contains(.reachable) ? 1 : 0
        }
    }
}

/// Pure functions from kernel state to flags and paths: `semantics.md`, "From the kernel to the flags".
enum Evaluator {
    /// The kernel questions that `target` needs answered, given the links (for `%scope` names).
    ///
    /// - Returns: nil when the target cannot be asked about at all (an unknown scope interface,
    ///   a local address the host does not own): its verdict is then `verdictWithoutLookup`.
    static func questions(for target: MonitorTarget, in snapshot: KernelSnapshot,
                          resolution: HostResolution? = nil) -> [RouteQuestion]? {
        switch target {
        case .host:
            // Addresses whose %scope names no interface are left out; the rest are asked in the resolver's order.
            return (resolution?.addresses ?? []).compactMap { question(destination: $0, source: nil, in: snapshot) }
        case .general:
            return [.defaultRoute(.ipv4), .defaultRoute(.ipv6)]
        case .address(let address):
            return question(destination: address, source: nil, in: snapshot).map { [$0] }
        case .pair(let local, let remote):
            if let local, !snapshot.owns(local) { return nil }
            guard let remote else { return [] }
            return question(destination: remote, source: local, in: snapshot).map { [$0] }
        }
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

    /// The verdict for a target whose questions were answered (in the order `questions` gave them).
    static func verdict(for target: MonitorTarget, answers: [RouteAnswer], in snapshot: KernelSnapshot) -> RouteVerdict {
        switch target {
        case .pair(let local?, nil):
            // Only a local address: reachable when the host holds it, as the route to it would be `local`.
            guard let holder = snapshot.addresses.first(where: { $0.address.bytes == local.bytes }) else {
                return RouteVerdict(flags: [], reason: .localAddressUnavailable, interfaceIndex: nil, gateways: [])
            }
            return RouteVerdict(flags: [.reachable, .isLocalAddress, .isDirect], reason: nil, interfaceIndex: holder.interfaceIndex, gateways: [])
        case .pair(let local?, _) where !snapshot.owns(local):
            return RouteVerdict(flags: [], reason: .localAddressUnavailable, interfaceIndex: nil, gateways: [])
        default:
            break
        }
        let verdicts = answers.map { verdict(for: $0, in: snapshot) }
        // The best one wins; ties go to the earlier question (IPv4 before IPv6 for the general path).
        return verdicts.enumerated().max { a, b in
            a.element.rank < b.element.rank || (a.element.rank == b.element.rank && a.offset > b.offset)
        }?.element ?? .noRoute
    }

    /// One route answer by the table of semantics.md.
    static func verdict(for answer: RouteAnswer, in snapshot: KernelSnapshot) -> RouteVerdict {
        guard case .route(let route) = answer else { return .noRoute }
        switch route.type {
        case .unreachable, .blackhole, .prohibit, .throw:
            return .noRoute
        case .local, .anycast:
            return RouteVerdict(flags: [.reachable, .isLocalAddress, .isDirect], reason: nil,
                                interfaceIndex: route.outputInterface, gateways: [])
        case .unicast, .broadcast, .multicast, .other:
            break
        }
        var verdict = RouteVerdict(flags: [], reason: nil, interfaceIndex: route.outputInterface, gateways: route.gateways)
        let link = route.outputInterface.flatMap { snapshot.links[$0] }
        if let link {
            if !link.isUp {
                verdict.reason = .interfaceDown
                return verdict
            }
            if !link.hasCarrier || link.isDormant || route.isLinkDown {
                verdict.flags = [.reachable, .connectionRequired]
                verdict.reason = .linkDown
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
    ///   - familyVerdicts: the verdict for each family the target covers (for `supportsIPv4`/`IPv6`).
    ///   - supportsDNS: whether a name server is configured for the namespace.
    static func path(for verdict: RouteVerdict, familyVerdicts: [IPAddress.Family: RouteVerdict],
                     in snapshot: KernelSnapshot, supportsDNS: Bool) -> NetworkPath {
        let status = ReachabilityStatus(flags: verdict.flags)
        let pathStatus: NetworkPath.Status =
            status.isReachable ? .satisfied
            : verdict.flags.contains([.reachable, .connectionRequired]) ? .requiresConnection : .unsatisfied
        let interface = verdict.interfaceIndex.flatMap { snapshot.links[$0] }.map(InterfaceClassifier.interface(for:))
        let withAddress = snapshot.indexesWithAddress
        let available = snapshot.links.values
            .filter { $0.isUp && $0.hasCarrier && withAddress.contains($0.index) && (!$0.isLoopback || $0.index == interface?.index) }
            .sorted { a, b in
                if a.index == interface?.index { return true }
                if b.index == interface?.index { return false }
                return a.index < b.index
            }
            .map(InterfaceClassifier.interface(for:))
        func supports(_ family: IPAddress.Family) -> Bool {
            familyVerdicts[family].map { ReachabilityStatus(flags: $0.flags).isReachable } ?? false
        }
        return NetworkPath(
            status: pathStatus,
            unsatisfiedReason: pathStatus == .satisfied ? nil : (verdict.reason ?? .noRoute),
            flags: verdict.flags,
            interface: interface,
            availableInterfaces: available,
            gateways: verdict.gateways.map(\.addressString),
            isExpensive: interface?.type == .cellular,
            isConstrained: false,
            supportsIPv4: supports(.ipv4),
            supportsIPv6: supports(.ipv6),
            supportsDNS: supportsDNS
        )
    }

    /// Evaluates a target end to end, given the answers to its questions.
    static func evaluate(_ target: MonitorTarget, questions: [RouteQuestion]?, answers: [RouteAnswer],
                         in snapshot: KernelSnapshot, supportsDNS: Bool, resolution: HostResolution? = nil) -> NetworkPath {
        var path = evaluateRoutes(target, questions: questions, answers: answers, in: snapshot, supportsDNS: supportsDNS)
        guard case .host = target else { return path }
        let resolution = resolution ?? HostResolution()
        path.resolvedAddresses = resolution.addresses.map(\.description)
        path.resolvedAddressesAreStale = resolution.isStale
        if resolution.addresses.isEmpty {
            path.unsatisfiedReason = resolution.state == .noNameServer ? .noDNSServer : .nameNotResolved
        }
        return path
    }

    private static func evaluateRoutes(_ target: MonitorTarget, questions: [RouteQuestion]?, answers: [RouteAnswer],
                                       in snapshot: KernelSnapshot, supportsDNS: Bool) -> NetworkPath {
        var best: RouteVerdict
        var families: [IPAddress.Family: RouteVerdict] = [:]
        if let questions {
            best = verdict(for: target, answers: answers, in: snapshot)
            for (question, answer) in zip(questions, answers) {
                let family: IPAddress.Family
                switch question {
                case .defaultRoute(let f): family = f
                case .destination(let request): family = request.destination.family
                }
                let candidate = verdict(for: answer, in: snapshot)
                if (families[family]?.rank ?? -1) < candidate.rank { families[family] = candidate }
            }
        } else {
            switch target {
            case .pair: best = RouteVerdict(flags: [], reason: .localAddressUnavailable, interfaceIndex: nil, gateways: [])
            default: best = .noRoute
            }
        }
        return path(for: best, familyVerdicts: families, in: snapshot, supportsDNS: supportsDNS)
    }
}
