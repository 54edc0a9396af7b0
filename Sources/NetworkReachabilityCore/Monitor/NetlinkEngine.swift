import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch
import Logging

/// The one engine of a network namespace and interface policy in this process, shared by all
/// their monitors: the state its loop's thread owns.
///
/// It owns the event socket (libnl's cache manager over links and addresses, joined to the route
/// and rule groups as a wake-up) and the lookup socket; its loop (`EventLoop`) waits for the
/// event socket and, on readable, the engine drains it and re-evaluates what the events can have
/// moved. Targets with the same question share one lookup. No polling: the only deferred work is
/// the second look after a deletion, a rate-limited resync after an overrun, and what the kernel
/// does not announce (a route's expiry, `+Expiry`), each a timer of the loop.
///
/// Nothing but the loop's thread touches it, and the compiler keeps it so: it is not `Sendable`,
/// so no closure that crosses threads can hold it. Other threads hold an `EngineHandle`, whose
/// `LoopBound` hands the engine only to work running on the loop (checked in debug builds), and
/// the loop's timers and posts name what they want done as an `EngineMessage`.
///
/// When the namespace goes away (`ip netns del`, or the process of a `/proc/PID/ns/net` exits)
/// the engine closes its sockets, reports `namespaceUnavailable` to every monitor, stops its loop
/// and leaves the registry, so new monitors of that name get `namespaceNotFound`.
///
/// Its extensions hold the event side (`+Events`: drains, second look, resync), the passes and
/// deliveries (`+Evaluation`), host names (`+Hosts`), namespace loss (`+Namespace`), expiry
/// (`+Expiry`), announcements (`+Announcements`, `+Networkd`) and its messages (`+Messages`).
final class NetlinkEngine {
    let namespace: NetworkNamespace
    let identity: NamespaceIdentity
    /// How links are classified, fixed for the engine's life: monitors with another policy have
    /// another engine (`EngineRegistry` keys by namespace and policy).
    let policy: InterfacePolicy
    let loop: EventLoop<NetlinkEngine>
    /// What other threads read without visiting the loop, written at the end of each turn.
    let published: LockedState<EnginePublication>
    /// nil once the namespace vanished.
    var sockets: EngineSockets?
    var vanishWatcher: NamespaceVanishWatcher?
    let logger = Logger(label: "network-reachability")

    var snapshot: KernelSnapshot {
        didSet { memory.linksChanged() }
    }
    /// Moves whenever links, addresses, routes or rules may have changed.
    var routingGeneration: UInt64 = 0
    /// What passes keep for the next turn: answers, the links' order, recent paths.
    var memory = EvaluationMemory()
    var subscribers: [ObjectIdentifier: MonitorCore] = [:]
    /// Drains absorbed and not yet propagated to the monitors (`absorb`, `propagate`).
    var pending: PendingChange?
    /// The interface of the path the engine last gave each subscriber (absent: no route), so that
    /// picking whom a change can move reads no monitor's lock.
    var subscriberInterfaces: [ObjectIdentifier: Int] = [:]
    var nameServers: NameServerConfiguration
    /// Which paths a name server serves (`supportsDNS`), read again when the configuration watcher
    /// reports a change (or on every pass while no watcher runs), never with a `stat` a pass.
    var cachedNameServers: NameServerScope?
    var lastResync: DispatchTime = .init(uptimeNanoseconds: 0)
    var resyncScheduled = false
    /// What a pending second look after a deletion will re-evaluate.
    var secondLook: SecondLook?
    /// Answers that stop being true without a message, and the timer that asks again (`+Expiry`).
    var expiry = ExpiryState()
    /// Published as they move, for tests and logs that read them from other threads right after a
    /// callback (deliveries leave in the middle of a turn); swift-metrics hears of them once a
    /// turn (`endTurn`).
    var counters = EngineCounters() {
        didSet {
            let counters = counters
            published.withLock { $0.counters = counters }
        }
    }
    /// The counters as swift-metrics last heard them.
    var metricsCounters = EngineCounters()
    /// swift-metrics; nil (and free) when the process bootstrapped no backend.
    let metrics: EngineMetrics?
    var hosts: [String: HostEntry] = [:]
    /// Made with the first host name, or the first probe of a connectivity prober of this
    /// namespace, which resolves its names here instead of in a pool of its own; stopped with the
    /// engine or the namespace. Behind a lock: the prober asks from its own thread.
    let resolvers: LockedState<ResolverPool?>
    /// The engine's one inotify instance: the resolver's configuration, resolved's upstream
    /// servers and networkd's link state files.
    var configurationWatcher: ConfigurationWatcher?
    /// Whether the files behind the monitors' answers are watched: from the first scheduled
    /// monitor on. A question asked once (`reachability check`, a read before `start`) reads the
    /// files it needs and watches none: an inotify instance that held a watch costs the process
    /// about 14 ms to tear down, the kernel waiting for a grace period as its marks go.
    var isWatchingFiles = false
    /// The default routes' verdicts when names were last resolved: names resolve again when they move.
    var defaultRouteVerdicts: [RouteVerdict] = []

    /// How long after a deletion the engine looks again (see `scheduleSecondLook`).
    static let secondLookDelay: DispatchTimeInterval = .milliseconds(20)

    /// Resyncs after overruns come at most this often, so an event storm cannot pin a core.
    static let minimumResyncInterval: DispatchTimeInterval = .milliseconds(100)

    #if DEBUG
    /// Test hook (debug builds only): runs in `init` after the sockets are open and before the
    /// namespace is watched, the window in which a namespace can vanish under a new engine.
    static let afterSocketsOpened = LockedState<(@Sendable (NetworkNamespace) -> Void)?>(nil)
    #endif

    /// Opens the engine's sockets inside `namespace` and reads the first snapshot. Runs on the
    /// thread that makes the engine, before its loop's thread starts (`EngineHandle`).
    init(namespace: NetworkNamespace, identity: NamespaceIdentity, policy: InterfacePolicy,
         loop: EventLoop<NetlinkEngine>, published: LockedState<EnginePublication>,
         resolvers: LockedState<ResolverPool?>, metrics: EngineMetrics?) throws(ReachabilityError) {
        self.namespace = namespace
        self.policy = policy
        self.metrics = metrics
        self.identity = identity
        self.loop = loop
        self.published = published
        self.resolvers = resolvers
        let isProcessOwn = (try? NamespaceEntry.identity(of: .current)) == identity
        let sockets = try EngineSockets.open(in: namespace, namespaceIsProcessOwn: isProcessOwn, policy: policy)
        #if DEBUG
        Self.afterSocketsOpened.withLock { $0 }?(namespace)
        #endif
        self.sockets = sockets
        self.snapshot = sockets.freshSnapshot()
        var nameServers = NameServerConfiguration(
            namespace: namespace, sources: policy.nameServerSources(namespaceIsProcessOwn: isProcessOwn))
        _ = nameServers.refresh(linkServers: sockets.networkd?.nameServersByLink ?? [:])
        // Short of descriptors, "no name server" would be a guess: say so instead.
        if let failure = nameServers.readFailure {
            throw .system(function: "fopen \(failure.path) (name-server configuration)", errno: failure.errno)
        }
        self.nameServers = nameServers
        do throws(NetlinkError) {
            // Its report is a message: it runs on the loop, once the loop's thread has started.
            vanishWatcher = try NamespaceVanishWatcher(namespace: namespace, identity: identity, waiter: loop) { [loop] in
                loop.send(.namespaceVanished)
            }
        } catch {
            throw error.reachabilityError
        }
        logger.debug("engine started", metadata: ["namespace": "\(namespace)", "links": "\(snapshot.links.count)"])
    }

    deinit {
        resolverPoolIfStarted?.stop()
        logger.debug("engine stopped", metadata: ["namespace": "\(namespace)"])
    }

    var resolverPoolIfStarted: ResolverPool? { resolvers.withLock { $0 } }
    var resolverPool: ResolverPool {
        EngineHandle.resolverPool(in: resolvers, namespace: namespace, nameServerSources: nameServers.sources)
    }

    // MARK: - Monitors

    /// Evaluates `target` now, with what the socket has queued absorbed first; also tells
    /// whether the path is a state (false: a name still being resolved).
    func read(_ target: MonitorTarget) -> (path: NetworkPath, isResolved: Bool) {
        absorbForRead()
        // A name whose first resolution has not finished reads as not resolved.
        let isPending = resolution(for: target)?.state == .pending
        return (evaluate([target], includingPending: true)[0]!, !isPending)
    }

    /// The path of `target` now, or nil for a host name whose first resolution has not finished.
    func readIfKnown(_ target: MonitorTarget) -> NetworkPath? {
        absorbForRead()
        return evaluate([target])[0]
    }

    /// Starts delivering `core`'s evaluations: the current one at once, then one per change. The
    /// first subscriber starts the watches of the files behind the answers.
    func subscribe(_ core: MonitorCore) {
        absorbForRead()
        startWatchingFiles()
        subscribers[ObjectIdentifier(core)] = core
        // A name still being resolved gets its first callback when the resolution finishes.
        if let path = evaluate([core.target])[0] {
            noteInterface(of: path, for: core)
            core.publish(path).deliver()
            metrics?.record(path, of: core.target)
        }
    }

    /// Stops delivering to the core `id` names.
    func unsubscribe(_ id: ObjectIdentifier) {
        subscribers[id] = nil
        subscriberInterfaces[id] = nil
    }

    /// Every link with its state, by index: `NetworkInterface.statuses(in:)`.
    func interfaceStatuses() -> [InterfaceStatus] {
        absorbForRead()
        return snapshot.links.values.sorted { $0.index < $1.index }
            .map { InterfaceStatus(link: $0, addresses: snapshot.addresses) }
    }

    /// Follows the files behind the monitors' answers, from the first scheduled monitor on: the
    /// resolver's configuration and networkd's link records.
    func startWatchingFiles() {
        guard !isWatchingFiles, sockets != nil else { return }
        isWatchingFiles = true
        startWatchingConfiguration()
        // What changed before the watches began is read once now.
        cachedNameServers = nil
        _ = networkdLinksChanged()
    }

    /// The resolver's configuration changed: `supportsDNS` is read again with the next evaluation.
    func resolverConfigurationChanged() {
        cachedNameServers = nil
    }
}

/// What other threads read of an engine without visiting its loop: its counters, published as
/// they move, and whether its namespace vanished.
struct EnginePublication: Sendable {
    var counters = EngineCounters()
    /// The namespace is gone: its loop has stopped.
    var vanished = false
}
