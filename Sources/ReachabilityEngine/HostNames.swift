import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityResolution
import ReachabilitySystem

/// The host names an engine resolves: each name's state, the pool of resolver threads, and the
/// default routes' verdicts when names were last resolved (names resolve again when they move).
struct HostNames {
    var entries: [String: HostEntry] = [:]
    /// Made with the first host name, or the first probe of a connectivity prober of this
    /// namespace, which resolves its names here instead of in a pool of its own; stopped with the
    /// engine or the namespace. Behind a lock: the prober asks from its own thread.
    let resolvers: LockedState<ResolverPool?>
    var defaultRouteVerdicts: [RouteVerdict] = []

    init(resolvers: LockedState<ResolverPool?>) {
        self.resolvers = resolvers
    }

    var isEmpty: Bool { entries.isEmpty }

    var poolIfStarted: ResolverPool? { resolvers.withLock { $0 } }

    /// The resolution a host target is evaluated with; nil for other targets.
    func resolution(for target: MonitorTarget) -> HostResolution? {
        guard case .host(let name) = target else { return nil }
        return entries[name]?.resolution ?? HostResolution()
    }
}

extension HostNames {
    /// The namespace is gone and the loop stopped: no timer runs again, and a name still queued
    /// in the stopped pool would never finish (every `flags()` would wait out the first-resolution
    /// timeout for it), so it has failed; its waiters are woken and the pool stops.
    mutating func namespaceVanished() {
        for name in entries.keys {
            entries[name]?.timer = nil
            if entries[name]?.resolution.state == .pending { entries[name]?.resolution.state = .failed }
            entries[name]?.releaseWaiters()
        }
        poolIfStarted?.stop()
    }
}
