import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch
import Logging

/// The one engine of a network namespace and interface policy in this process, shared by all
/// their monitors.
///
/// It owns the event socket (libnl's cache manager over links and addresses, joined to the route
/// and rule groups as a wake-up) and the lookup socket, waits for the event socket on a thread of
/// its own (`EventWaiter`), and on readable drains the socket on its serial queue, then
/// re-evaluates what the events can have moved. Targets with the same question share one lookup.
/// No polling: the only deferred work is the second look after a deletion, a rate-limited resync
/// after an overrun, and what the kernel does not announce (a route's expiry, `+Expiry`).
///
/// When the namespace goes away (`ip netns del`, or the process of a `/proc/PID/ns/net` exits)
/// the engine closes its sockets, reports `namespaceUnavailable` to every monitor, and leaves the
/// registry, so new monitors of that name get `namespaceNotFound`.
///
/// The class holds the lifecycle and the subscriptions; its extensions the event side
/// (`+Events`: drains, second look, resync), the passes and deliveries (`+Evaluation`, over an
/// `EvaluationPass`), host names (`+Hosts`) and namespace loss (`+Namespace`).
///
/// `@unchecked Sendable`: every `var` and both sockets are touched only on `queue`
/// (`dispatchPrecondition` guards the entry points); the rest are `let`s of Sendable types.
final class NetlinkEngine: @unchecked Sendable {
    let namespace: NetworkNamespace
    let identity: NamespaceIdentity
    /// How links are classified, fixed for the engine's life: monitors with another policy have
    /// another engine (`EngineRegistry` keys by namespace and policy).
    let policy: InterfacePolicy
    let queue: DispatchQueue
    /// nil once the namespace vanished.
    var sockets: EngineSockets?
    /// Runs `handleReadable` on the queue when the event socket is readable (set once in `init`).
    var waiter: EventWaiter?
    var vanishWatcher: NamespaceVanishWatcher?
    /// The waiter, for `deferOnQueue` from any thread (`waiter` is confined to the queue). Weak:
    /// when the namespace vanishes, dropping `waiter` still closes its pipe.
    private let poster = LockedState(WeakWaiter())
    let logger = Logger(label: "network-reachability")

    // Confined to `queue`.
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
    /// The keys of `subscribers` as callers may read them off the queue, for `unsubscribe`
    /// (a pthread lock: touched from every thread that subscribes, and TSan sees it).
    private let subscribed = LockedState(Set<ObjectIdentifier>())
    var nameServers: NameServerConfiguration
    /// Which paths a name server serves (`supportsDNS`), read again when the configuration watcher
    /// reports a change (or on every pass when inotify is unavailable), never with a `stat` a pass.
    var cachedNameServers: NameServerScope?
    var lastResync: DispatchTime = .init(uptimeNanoseconds: 0)
    var resyncScheduled = false
    /// What a pending second look after a deletion will re-evaluate.
    var secondLook: SecondLook?
    /// Answers that stop being true without a message, and the timer that asks again (`+Expiry`).
    var expiry = ExpiryState()
    var counters = EngineCounters() {
        didSet { metrics?.publish(from: oldValue, to: counters) }
    }
    /// swift-metrics; nil (and free) when the process bootstrapped no backend.
    let metrics: EngineMetrics?
    var hosts: [String: HostEntry] = [:]
    /// Made with the first host name, or the first probe of a connectivity prober of this
    /// namespace, which resolves its names here instead of in a pool of its own; stopped with the
    /// engine or the namespace. Behind a lock, not the queue: the prober asks from its own queue.
    private let resolvers = LockedState<ResolverPool?>(nil)
    var resolverPoolIfStarted: ResolverPool? { resolvers.withLock { $0 } }
    var resolverPool: ResolverPool {
        resolvers.withLock { pool in
            if let pool { return pool }
            let made = ResolverPool(namespace: namespace, nameServerSources: nameServers.sources)
            pool = made
            return made
        }
    }
    /// The engine's one inotify instance: the resolver's configuration, resolved's upstream
    /// servers and networkd's link state files.
    var configurationWatcher: ConfigurationWatcher?
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

    /// Opens the engine's sockets inside `namespace` and reads the first snapshot.
    init(namespace: NetworkNamespace, identity: NamespaceIdentity, policy: InterfacePolicy) throws(ReachabilityError) {
        self.namespace = namespace
        self.policy = policy
        self.metrics = EngineMetrics.make(namespace: namespace)
        self.identity = identity
        self.queue = DispatchQueue(label: "network-reachability.engine.\(namespace)")
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
        // Made on the queue: the waiter's thread runs its first handler there, and that handler
        // (a second look, a resync) must find `waiter` set, or its wake-up would be lost for good.
        let setupFailure: ReachabilityError? = queue.sync {
            do throws(ReachabilityError) {
                // The waiter keeps the sockets open until its thread has ended; they die on the queue.
                let waiter = try EventWaiter(fileDescriptor: sockets.events.fileDescriptor, queue: queue, keepAlive: sockets,
                                             readable: { [weak self] in self?.handleReadable() })
                self.waiter = waiter
                poster.withLock { $0.waiter = waiter }
                do throws(NetlinkError) {
                    vanishWatcher = try NamespaceVanishWatcher(namespace: namespace, identity: identity, queue: queue,
                                                               waiter: waiter) { [weak self] in self?.namespaceVanished() }
                } catch {
                    throw error.reachabilityError
                }
            } catch {
                return error
            }
            startWatchingConfiguration()
            return nil
        }
        if let setupFailure { throw setupFailure }
        logger.debug("engine started", metadata: ["namespace": "\(namespace)", "links": "\(snapshot.links.count)"])
    }

    deinit {
        waiter?.stop()  // and with it the host names' re-resolution timers
        resolverPoolIfStarted?.stop()
        logger.debug("engine stopped", metadata: ["namespace": "\(namespace)"])
    }

    // MARK: - Monitors

    /// Evaluates `target` now, with a fresh snapshot of what the socket has queued. Blocks the caller for one round trip.
    func read(_ target: MonitorTarget) -> NetworkPath {
        readNoting(target).path
    }

    /// `read`, also telling whether the path is a state (false: a name still being resolved).
    func readNoting(_ target: MonitorTarget) -> (path: NetworkPath, isResolved: Bool) {
        queue.sync { readOnQueue(target) }
    }

    /// `readNoting` on the queue (`fetchCurrentPath` comes through `deferOnQueue`).
    func readOnQueue(_ target: MonitorTarget) -> (path: NetworkPath, isResolved: Bool) {
        absorbForRead()
        // A name whose first resolution has not finished reads as not resolved.
        let isPending = resolution(for: target)?.state == .pending
        return (evaluate([target], includingPending: true)[0]!, !isPending)
    }

    /// The path of `target` now, or nil for a host name whose first resolution has not finished:
    /// one route lookup for an address, never a wait (`ReachabilityManager.startMonitoring()`).
    func readIfKnown(_ target: MonitorTarget) -> NetworkPath? {
        queue.sync {
            absorbForRead()
            return evaluate([target])[0]
        }
    }

    /// Starts delivering `core`'s evaluations: the current one at once, then one per change.
    func subscribe(_ core: MonitorCore) {
        queue.sync {
            absorbForRead()
            subscribers[ObjectIdentifier(core)] = core
            subscribed.withLock { _ = $0.insert(ObjectIdentifier(core)) }
            // A name still being resolved gets its first callback when the resolution finishes.
            if let path = evaluate([core.target])[0] {
                noteInterface(of: path, for: core)
                core.publish(path).deliver()
                metrics?.record(path, of: core.target)
            }
        }
    }

    /// Stops delivering to `core`. Asynchronous: `core` itself ignores evaluations once unscheduled.
    func unsubscribe(_ core: MonitorCore) {
        // A core never subscribed (a monitor only asked once, as `reachability check` does) needs
        // no hop at all; the others hop through the waiter (`deferOnQueue`), never `queue.async`.
        let id = ObjectIdentifier(core)
        guard subscribed.withLock({ $0.remove(id) != nil }) else { return }
        deferOnQueue { [self] in
            // The waiter may run this after a `subscribe` of the same core (a monitor unscheduled
            // and scheduled again at once: `subscribe` takes the queue directly): it is kept then.
            guard !subscribed.withLock({ $0.contains(id) }) else { return }
            subscribers[id] = nil
            subscriberInterfaces[id] = nil
        }
    }

    /// The engine's loop, from any thread; nil once the namespace vanished (its thread has ended).
    /// The connectivity probers of the namespace keep their timers on it.
    var eventLoop: EventWaiter? { poster.withLock { $0.waiter } }

    /// Runs `work` on the queue later, from the waiter's thread (`EventWaiter.post`): no dispatch
    /// worker thread is needed, so a pids limit cannot hang it. Once the waiter is gone (the
    /// namespace vanished) it falls back to `queue.async`.
    func deferOnQueue(_ work: @escaping @Sendable () -> Void) {
        if poster.withLock({ $0.waiter })?.post(work) == true { return }
        queue.async(execute: work)
    }

    /// Every link with its state, by index: `NetworkInterface.statuses(in:)`.
    func interfaceStatuses() -> [InterfaceStatus] {
        queue.sync {
            absorbForRead()
            return snapshot.links.values.sorted { $0.index < $1.index }
                .map { InterfaceStatus(link: $0, addresses: snapshot.addresses) }
        }
    }

    /// The resolver's configuration changed: `supportsDNS` is read again with the next evaluation.
    func resolverConfigurationChanged() {
        dispatchPrecondition(condition: .onQueue(queue))
        cachedNameServers = nil
    }

    /// Counters for tests and logs. Blocks for one hop onto the queue.
    var currentCounters: EngineCounters { queue.sync { counters } }
}

/// A reference to the engine's waiter that does not keep it.
struct WeakWaiter {
    weak var waiter: EventWaiter?
}
