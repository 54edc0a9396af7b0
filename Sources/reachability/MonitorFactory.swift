import NetworkReachability

extension TargetSpecification {
    /// Makes the monitor for this target in `namespace`: the one place that maps what the user
    /// asked for onto the library's initialisers.
    ///
    /// Host names are the branch still to come: `PathMonitor(host:namespace:)` replaces the throw.
    /// - Throws: `ReachabilityError` for an invalid address or namespace,
    ///   `CommandFailure.hostNamesUnsupported` for a host name.
    func makeMonitor(namespace: NetworkNamespace) throws -> PathMonitor {
        switch self {
        case .general:
            try PathMonitor(namespace: namespace)
        case .address(let address):
            try PathMonitor(address: address, namespace: namespace)
        case .pair(let local, let remote):
            try PathMonitor(localAddress: local, remoteAddress: remote, namespace: namespace)
        case .host(let name):
            throw CommandFailure.hostNamesUnsupported(name)
        }
    }

    /// The addresses a host name resolved to, for the record's `addresses`; nil for other targets.
    ///
    /// Always nil today: host names are not monitored yet. When `PathMonitor(host:)` lands, the
    /// `.host` case reads the monitor's resolved addresses here.
    func resolvedAddresses(of monitor: PathMonitor) -> [String]? {
        nil
    }
}
