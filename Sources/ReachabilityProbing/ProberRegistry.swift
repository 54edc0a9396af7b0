import ReachabilityEngine
import ReachabilityLoop
import ReachabilityConnectivity
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// The process's probers: monitors of one namespace with equal probes share one.
package enum ProberRegistry {
    private struct Key: Hashable {
        package var namespace: NamespaceIdentity
        package var configuration: ProberConfiguration
    }

    private struct WeakProber {
        package weak var prober: ConnectivityProber?
    }

    private static let probers = LockedState<[Key: WeakProber]>([:])

    /// The prober of `configuration` in `namespace`; nil when there is nothing to probe or fetch,
    /// or the namespace cannot be identified (the monitor's path then says why, and its
    /// connectivity stays `unknown`).
    package static func prober(for configuration: ProberConfiguration, in namespace: NetworkNamespace,
                       engine: EngineHandle?) -> ConnectivityProber? {
        guard !configuration.isEmpty, let identity = try? NamespaceEntry.identity(of: namespace) else { return nil }
        let key = Key(namespace: identity, configuration: configuration.shared)
        return probers.withLock { probers in
            if let prober = probers[key]?.prober { return prober }
            let prober = ConnectivityProber(configuration: configuration.shared, namespace: namespace, engine: engine)
            probers = probers.filter { $0.value.prober != nil }
            probers[key] = WeakProber(prober: prober)
            return prober
        }
    }
}
