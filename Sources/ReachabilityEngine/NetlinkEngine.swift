import ReachabilityLoop
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
/// (`+Expiry`) and its messages (`+Messages`); the announcements' glue sits with their part
/// (`Announcements`). What a turn decides the loop and the sockets must do next (timers, groups)
/// waits in `effects` until the turn ends.
///
/// Its state is its loop's thread's alone (the loop runs every method), so the runtime's
/// exclusivity checks on the properties a turn walks (`@exclusivity(unchecked)`) would guard
/// against no other thread and only cost each turn their thread-local lookups: some fifty a
/// route change, a tenth of its instructions. The compiler's static checks still hold.
package final class NetlinkEngine {
    let identity: EngineIdentity
    let loop: EventLoop<NetlinkEngine>
    /// nil once the namespace vanished.
    @exclusivity(unchecked) var sockets: EngineSockets?
    /// Reports the namespace's name going away; nil once it did.
    var namespaceWatch: NamespaceVanishWatcher?
    /// Links and addresses as the kernel announced them, and what passes derive from them.
    @exclusivity(unchecked) var model: LinkModel
    /// Who asks, answers kept between turns, what is drained and not yet propagated, second
    /// looks, resyncs.
    @exclusivity(unchecked) var questions = QuestionBook()
    /// Answers that stop being true without a message, and the timer that asks again (`+Expiry`).
    @exclusivity(unchecked) var expiry = ExpiryState()
    @exclusivity(unchecked) var names: HostNames
    @exclusivity(unchecked) var resolverConfiguration: ResolverConfiguration
    /// The RAs' and networkd's captive-portal announcements, and their pacing's release.
    let announcements: Announcements
    /// The counters, published as they move and to swift-metrics once a turn.
    @exclusivity(unchecked) var report: EngineReport
    /// The timers and groups the turn asked for, applied as it ends, and the timers armed.
    @exclusivity(unchecked) var effects = TurnEffects()

    /// How long after a deletion the engine looks again (see `scheduleSecondLook`).
    static let secondLookDelay: DispatchTimeInterval = .milliseconds(20)

    /// Opens the engine's sockets inside `namespace` and reads the first snapshot. Runs on the
    /// thread that makes the engine, before its loop's thread starts (`EngineHandle`).
    init(namespace: NetworkNamespace, identity: NamespaceIdentity, policy: InterfacePolicy,
         loop: EventLoop<NetlinkEngine>, published: LockedState<EnginePublication>,
         resolvers: LockedState<ResolverPool?>, metrics: EngineMetrics?) throws(ReachabilityError) {
        self.identity = EngineIdentity(namespace: namespace, inode: identity, policy: policy)
        self.loop = loop
        self.report = EngineReport(published: published, metrics: metrics)
        self.names = HostNames(resolvers: resolvers)
        let isProcessOwn = (try? NamespaceEntry.identity(of: .current)) == identity
        let sockets = try EngineSockets.open(in: namespace, namespaceIsProcessOwn: isProcessOwn, policy: policy)
        Self.socketsOpened(in: namespace)
        self.sockets = sockets
        self.announcements = Announcements(routerAdvertisements: sockets.events.captivePortals, networkd: sockets.networkd)
        self.model = LinkModel(snapshot: sockets.freshSnapshot())
        var nameServers = NameServerConfiguration(
            namespace: namespace, sources: policy.nameServerSources(namespaceIsProcessOwn: isProcessOwn))
        _ = nameServers.refresh(linkServers: sockets.networkd?.nameServersByLink ?? [:])
        // Short of descriptors, "no name server" would be a guess: say so instead.
        if let failure = nameServers.readFailure {
            throw .system(function: "fopen \(failure.path) (name-server configuration)", errno: failure.errno)
        }
        self.resolverConfiguration = ResolverConfiguration(nameServers: nameServers)
        do throws(NetlinkError) {
            // Its report is a message: it runs on the loop, once the loop's thread has started.
            namespaceWatch = try NamespaceVanishWatcher(namespace: namespace, identity: identity, loop: loop) { [loop] in
                loop.send(.namespaceVanished)
            }
        } catch {
            throw error.reachabilityError
        }
        self.identity.logger.debug("engine started", metadata: ["namespace": "\(namespace)", "links": "\(model.snapshot.links.count)"])
    }

    deinit {
        names.poolIfStarted?.stop()
        identity.logger.debug("engine stopped", metadata: ["namespace": "\(identity.namespace)"])
    }

    var resolverPool: ResolverPool {
        EngineHandle.resolverPool(in: names.resolvers, namespace: identity.namespace,
                                  nameServerSources: resolverConfiguration.nameServers.sources)
    }

    // MARK: - Monitors

    /// Evaluates `target` now, with what the socket has queued absorbed first; also tells
    /// whether the path is a state (false: a name still being resolved).
    func read(_ target: MonitorTarget) -> (path: NetworkPath, isResolved: Bool) {
        absorbForRead()
        // A name whose first resolution has not finished reads as not resolved.
        let isPending = names.resolution(for: target)?.state == .pending
        return (evaluate([target], includingPending: true)[0]!, !isPending)
    }

    /// The path of `target` now, or nil for a host name whose first resolution has not finished.
    func readIfKnown(_ target: MonitorTarget) -> NetworkPath? {
        absorbForRead()
        return evaluate([target])[0]
    }

    /// Starts delivering `core`'s evaluations: the current one at once, then one per change. The
    /// first subscriber starts the watches of the files behind the answers.
    func subscribe(_ core: any PathSubscriber) {
        absorbForRead()
        startWatchingFiles()
        questions.subscriptions.add(core)
        // A name still being resolved gets its first callback when the resolution finishes.
        evaluate([core.target]) { _, made in
            guard case .path(let path, let stamp) = made else { return }
            questions.subscriptions.note(path, stamp: stamp, for: core)
            _ = core.take(path)
            LoopThread.sendQueued()
            report.metrics?.record(path, of: core.target)
        }
    }

    /// Stops delivering to the core `id` names.
    func unsubscribe(_ id: ObjectIdentifier) {
        questions.subscriptions.remove(id)
        narrowRouteWatchIfStale()
    }

    /// Narrows the event socket's route filter to the destinations the subscribers still ask
    /// about, once it watches more than twice as many as there are subscribers (or lets every route
    /// message through while few are left). The book forgets its answers about the others: no
    /// route message about them will reach the engine now.
    private func narrowRouteWatchIfStale() {
        guard let watch = sockets?.events.routeWatch else { return }
        let subscribers = questions.subscriptions.all
        let isStale = watch.passesEverything ? subscribers.count <= RouteEventWatch.capacity / 2
                                             : watch.count > 2 * subscribers.count + 8
        guard isStale else { return }
        var asked = Set<IPAddress>()
        for core in subscribers {
            _ = Evaluator.asksAny(for: core.target, in: model.snapshot, resolution: names.resolution(for: core.target)) {
                if case .destination(let request) = $0 { asked.insert(request.destination) }
                return false
            }
        }
        questions.answers.forget { question in
            guard case .destination(let request) = question else { return false }
            return !asked.contains(request.destination)
        }
        watch.narrow(to: asked)
    }

    /// Every link with its state, by index: `NetworkInterface.statuses(in:)`.
    func interfaceStatuses() -> [InterfaceStatus] {
        absorbForRead()
        return model.snapshot.links.values.sorted { $0.index < $1.index }
            .map { InterfaceStatus(link: $0, addresses: model.snapshot.addresses) }
    }

    /// Follows the files behind the monitors' answers, from the first scheduled monitor on: the
    /// resolver's configuration and networkd's link records.
    func startWatchingFiles() {
        guard !resolverConfiguration.isWatchingFiles, sockets != nil else { return }
        resolverConfiguration.isWatchingFiles = true
        startWatchingConfiguration()
        // What changed before the watches began is read once now.
        resolverConfiguration.changed()
        _ = networkdLinksChanged()
    }
}

/// What other threads read of an engine without visiting its loop: its counters, published as
/// they move, and whether its namespace vanished.
struct EnginePublication: Sendable {
    var counters = EngineCounters()
    /// The namespace is gone: its loop has stopped.
    var vanished = false
}
