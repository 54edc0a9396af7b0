import NetworkReachabilityCore

extension TargetSpecification {
    /// Makes the monitor for this target in `namespace`: the one place that maps what the user
    /// asked for onto the library's initialisers.
    ///
    /// - Throws: `ReachabilityError` for an invalid address, host name or namespace.
    func makeMonitor(namespace: NetworkNamespace) throws -> PathMonitor {
        switch self {
        case .general:
            let monitor = PathMonitor(namespace: namespace)
            // The general path does not throw (as NWPathMonitor()); the command still reports a bad namespace.
            if let error = monitor.setupError { throw error }
            return monitor
        case .address(let address):
            return try PathMonitor(address: address, namespace: namespace)
        case .pair(let local, let remote):
            return try PathMonitor(localAddress: local, remoteAddress: remote, namespace: namespace)
        case .host(let name):
            return try PathMonitor(host: name, namespace: namespace)
        }
    }

    /// The addresses a host name resolved to, in the resolver's order, for the record's
    /// `addresses`; nil for other targets (the key is then left out).
    func resolvedAddresses(in path: NetworkPath) -> [String]? {
        guard case .host = self else { return nil }
        return path.resolvedAddresses.map(\.description)
    }
}
