import ReachabilityLoop
import ReachabilityConnectivity
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// The process's probers: monitors of one engine (a namespace and interface policy) with equal
/// probes share one. Keyed by the engine's loop too, because a prober lives on its loop: one
/// shared across engines would lose its timers when the engine it was made on stopped while the
/// other's monitors still listened.
package enum ProberRegistry {
    private struct Key: Hashable {
        package var namespace: NamespaceIdentity
        package var configuration: ProberConfiguration
        /// The engine's loop; nil when no engine could be had.
        package var loop: ObjectIdentifier?
    }

    private struct WeakProber {
        package weak var prober: ConnectivityProber?
    }

    private static let probers = LockedState<[Key: WeakProber]>([:])

    /// The prober of `configuration` in `namespace`, on `loop` with `resolver` (its engine's); nil
    /// when there is nothing to probe or fetch, or the namespace cannot be identified (the
    /// monitor's path then says why, and its connectivity stays `unknown`).
    package static func prober(for configuration: ProberConfiguration, in namespace: NetworkNamespace,
                               loop: (any LoopScheduling)?, resolver: @autoclosure () -> ResolverPool?) -> ConnectivityProber? {
        guard !configuration.isEmpty, let identity = try? NamespaceEntry.identity(of: namespace) else { return nil }
        let key = Key(namespace: identity, configuration: configuration.shared, loop: loop.map(ObjectIdentifier.init))
        return probers.withLock { probers in
            if let prober = probers[key]?.prober { return prober }
            let prober = ConnectivityProber(configuration: configuration.shared, namespace: namespace, loop: loop,
                                            resolver: resolver())
            probers = probers.filter { $0.value.prober != nil }
            probers[key] = WeakProber(prober: prober)
            return prober
        }
    }
}
