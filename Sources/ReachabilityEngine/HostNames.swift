import Dispatch
import ReachabilityEvaluation
import ReachabilityLoop
import ReachabilityModel
import ReachabilityNetlink
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
            if entries[name]?.resolution.state == .pending { entries[name]?.resolution.state = .failed }
            entries[name]?.releaseWaiters()
        }
        poolIfStarted?.stop()
    }
}

/// The names an engine resolves, with their state. Confined to the engine's loop.
struct HostEntry {
    /// One interval per monitor of the name; the shortest one drives the periodic re-resolution.
    var intervals: [Int] = []
    var resolution = HostResolution()
    var inFlight = false
    var resolveAgain = false
    /// The interval the re-resolution timer (`EngineTimer.reresolve`) is armed with.
    var timerInterval: Int?
    /// Run when the first resolution finished (a blocked `currentPath` or a suspended `fetchCurrentPath`).
    var waiters: [@Sendable () -> Void] = []

    var shortestInterval: Int? { intervals.min() }

    /// Applies a resolver outcome by the failure rules: a definite answer replaces the addresses,
    /// a temporary failure keeps the last good ones and marks them stale.
    mutating func apply(_ outcome: ResolutionOutcome) {
        switch outcome {
        case .addresses(let addresses):
            resolution = HostResolution(state: .resolved, addresses: addresses, isStale: false)
        case .notFound:
            resolution = HostResolution(state: .notFound, addresses: [], isStale: false)
        case .noNameServer:
            resolution = HostResolution(state: .noNameServer, addresses: [], isStale: false)
        case .temporaryFailure:
            if resolution.addresses.isEmpty {
                resolution = HostResolution(state: .failed, addresses: [], isStale: false)
            } else {
                resolution.isStale = true
            }
        }
    }

    /// Wakes everyone waiting for the first resolution.
    mutating func releaseWaiters() {
        waiters.forEach { $0() }
        waiters.removeAll()
    }
}
