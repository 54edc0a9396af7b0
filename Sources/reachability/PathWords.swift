import NetworkReachabilityCore

/// A path in plain words, for the lines a person reads: the human records and `wait`'s timeout
/// line. The JSON keeps the library's camelCase words (`noRoute`, `reachableViaWiFi`); these say
/// the same thing without asking the reader to know AFNetworking.
enum PathWords {
    /// `reachable`, `unreachable` or `unknown`: one word, so the human line keeps its columns.
    static func state(of path: NetworkPath) -> String {
        switch path.reachabilityStatus {
        case .reachableViaWiFi, .reachableViaWWAN: "reachable"
        case .notReachable: "unreachable"
        case .unknown: "unknown"
        }
    }

    /// Why a path that is not reachable is not: `no route`, `no carrier on v0`, `name not
    /// resolved`, ...; nil for a reachable path.
    static func whyNot(_ path: NetworkPath) -> String? {
        guard !path.reachabilityStatus.isReachable else { return nil }
        let on = path.interface.map { " on \($0.name)" } ?? ""
        switch path.unsatisfiedReason {
        case .noRoute?: return "no route"
        case .unreachableRoute?: return "unreachable route"
        case .prohibitedRoute?: return "prohibited by route"
        case .blackholeRoute?: return "blackhole route"
        case .noCarrier?: return "no carrier" + on
        case .interfaceDown?: return "link down" + on
        case .localAddressUnavailable?: return "local address not on this host"
        case .requiredInterfaceUnavailable?: return "required interface unavailable"
        case .nameNotResolved?: return "name not resolved"
        case .noDNSServer?: return "no DNS server"
        case .namespaceUnavailable?: return "namespace unavailable"
        case nil:
            // A satisfied path the flags still call unreachable: a connection must be made first.
            return path.flags.contains(.connectionRequired) ? "connection required" + on : "no route"
        }
    }

    /// `v0 (wiredEthernet)`: the interface a path leaves by and its kind; nil without one.
    static func via(_ path: NetworkPath) -> String? {
        path.interface.map { "\($0.name) (\($0.type))" }
    }

    /// `limited (timed out)`: the connectivity word and, when there is one, its reason.
    static func connectivity(of path: NetworkPath) -> String {
        path.connectivity.description + (path.connectivityReason.map { " (\($0))" } ?? "")
    }

    /// What kept one target of a `wait` from its goal, for the timeout's line:
    /// `not reachable (no route)`, or with a probe
    /// `reachable via v0 (wiredEthernet), connectivity limited (name not resolved)`.
    static func unmet(_ path: NetworkPath?, probing: Bool) -> String {
        guard let path else { return "no state yet" }
        if let why = whyNot(path) { return "not reachable (\(why))" }
        let via = via(path).map { "reachable via \($0)" } ?? "reachable"
        guard probing else { return via }
        if path.connectivity == .unknown, path.connectivityReason == nil {
            return via + ", connectivity not known yet (no probe answer)"
        }
        return via + ", connectivity " + connectivity(of: path) + (path.portalURL.map { " \($0)" } ?? "")
    }
}
