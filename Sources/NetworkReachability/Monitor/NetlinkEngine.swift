import Dispatch
import Logging
import Synchronization

/// The one engine of a network namespace in this process, shared by all its monitors.
///
/// It owns the event socket (libnl's cache manager over links and addresses, joined to the route
/// and rule groups as a wake-up) and the lookup socket, waits for the event socket on a thread of
/// its own (`EventWaiter`), and on readable drains the socket on its serial queue, then
/// re-evaluates what the events can have moved. Targets with the same question share one lookup.
/// No polling: the only deferred work is the second look after a deletion and a rate-limited
/// resync after an overrun.
///
/// When the namespace goes away (`ip netns del`, or the process of a `/proc/PID/ns/net` exits)
/// the engine closes its sockets, reports `namespaceUnavailable` to every monitor, and leaves the
/// registry, so new monitors of that name get `namespaceNotFound`.
///
/// `@unchecked Sendable`: every `var` and both sockets are touched only on `queue`
/// (`dispatchPrecondition` guards the entry points); the rest are `let`s of Sendable types.
final class NetlinkEngine: @unchecked Sendable {
    let namespace: NetworkNamespace
    let identity: NamespaceIdentity
    let queue: DispatchQueue
    /// nil once the namespace vanished.
    fileprivate var sockets: EngineSockets?
    /// Runs `handleReadable` on the queue when the event socket is readable (set once in `init`).
    private var waiter: EventWaiter?
    private var vanishWatcher: NamespaceVanishWatcher?
    let logger = Logger(label: "network-reachability")

    // Confined to `queue`.
    fileprivate var snapshot: KernelSnapshot
    fileprivate var policyGeneration: UInt64 = 0
    /// Moves whenever links, addresses, routes or rules may have changed.
    private var routingGeneration: UInt64 = 0
    /// Each interface's default-route metric, for the order of `availableInterfaces`; asked once per routing generation.
    private var preferenceCache: (generation: UInt64, metrics: [Int: UInt32])?
    private var subscribers: [ObjectIdentifier: MonitorCore] = [:]
    private var nameServers: NameServerConfiguration
    /// `supportsDNS`, read again when the configuration watcher reports a change (or on every
    /// pass when inotify is unavailable), not with a `stat` on every pass.
    private var cachedSupportsDNS: Bool?
    private var lastResync: DispatchTime = .init(uptimeNanoseconds: 0)
    private var resyncScheduled = false
    /// What a pending second look after a deletion will re-evaluate.
    private var secondLook: SecondLook?
    var counters = EngineCounters() {
        didSet { metrics?.publish(from: oldValue, to: counters) }
    }
    /// swift-metrics; nil (and free) when the process bootstrapped no backend.
    let metrics: EngineMetrics?
    var hosts: [String: HostEntry] = [:]
    /// Made with the first host name; stopped with the engine or the namespace.
    private var resolverPoolIfStarted: ResolverPool?
    var resolverPool: ResolverPool {
        if let pool = resolverPoolIfStarted { return pool }
        let pool = ResolverPool(namespace: namespace)
        resolverPoolIfStarted = pool
        return pool
    }
    var configurationWatcher: ResolverConfigurationWatcher?
    /// The default routes' verdicts when names were last resolved: names resolve again when they move.
    private var defaultRouteVerdicts: [RouteVerdict] = []

    /// How long after a deletion the engine looks again (see `scheduleSecondLook`).
    static let secondLookDelay: DispatchTimeInterval = .milliseconds(20)

    /// Resyncs after overruns come at most this often, so an event storm cannot pin a core.
    static let minimumResyncInterval: DispatchTimeInterval = .milliseconds(100)

    /// Opens the engine's sockets inside `namespace` and reads the first snapshot.
    init(namespace: NetworkNamespace, identity: NamespaceIdentity) throws(ReachabilityError) {
        self.namespace = namespace
        self.metrics = EngineMetrics.make(namespace: namespace)
        self.identity = identity
        self.queue = DispatchQueue(label: "network-reachability.engine.\(namespace)")
        let isProcessOwn = (try? NamespaceEntry.identity(of: .current)) == identity
        let sockets = try NamespaceEntry.run(in: namespace) { () throws(NetlinkError) in
            try EngineSockets(namespaceIsProcessOwn: isProcessOwn)
        }
        self.sockets = sockets
        self.snapshot = sockets.freshSnapshot()
        self.nameServers = NameServerConfiguration(namespace: namespace)
        // The waiter keeps the sockets open until its thread has ended; they die on the queue.
        waiter = try EventWaiter(fileDescriptor: sockets.events.fileDescriptor, queue: queue, keepAlive: sockets,
                                 readable: { [weak self] in self?.handleReadable() },
                                 due: { [weak self] in self?.secondLookDue() })
        queue.sync {
            vanishWatcher = NamespaceVanishWatcher(namespace: namespace, identity: identity, queue: queue) { [weak self] in
                self?.namespaceVanished()
            }
            startWatchingConfiguration()
        }
        logger.debug("engine started", metadata: ["namespace": "\(namespace)", "links": "\(snapshot.links.count)"])
    }

    deinit {
        waiter?.stop()
        for entry in hosts.values { entry.timer?.cancel() }
        resolverPoolIfStarted?.stop()
        logger.debug("engine stopped", metadata: ["namespace": "\(namespace)"])
    }

    // MARK: - Monitors

    /// Evaluates `target` now, with a fresh snapshot of what the socket has queued. Blocks the caller for one round trip.
    func evaluateNow(_ target: MonitorTarget) -> NetworkPath {
        evaluateNowNoting(target).path
    }

    /// `evaluateNow`, also telling whether the path is a state (false: a name still being resolved).
    func evaluateNowNoting(_ target: MonitorTarget) -> (path: NetworkPath, isResolved: Bool) {
        queue.sync {
            drainAndRefresh()
            // A name whose first resolution has not finished reads as not resolved.
            let isPending = resolution(for: target)?.state == .pending
            return (evaluate([target], includingPending: true)[0]!, !isPending)
        }
    }

    /// The path of `target` now, or nil for a host name whose first resolution has not finished:
    /// one route lookup for an address, never a wait (`ReachabilityManager.startMonitoring()`).
    func evaluateIfKnown(_ target: MonitorTarget) -> NetworkPath? {
        queue.sync {
            drainAndRefresh()
            return evaluate([target])[0]
        }
    }

    /// Starts delivering `core`'s evaluations: the current one at once, then one per change.
    func subscribe(_ core: MonitorCore) {
        queue.sync {
            drainAndRefresh()
            subscribers[ObjectIdentifier(core)] = core
            // A name still being resolved gets its first callback when the resolution finishes.
            if let path = evaluate([core.target])[0] {
                core.receive(path)
                metrics?.record(path, of: core.target)
            }
        }
    }

    /// Stops delivering to `core`. Asynchronous: `core` itself ignores evaluations once unscheduled.
    func unsubscribe(_ core: MonitorCore) {
        queue.async { [self] in
            subscribers[ObjectIdentifier(core)] = nil
        }
    }

    /// Every link with its state, by index: `NetworkInterface.statuses(in:)`.
    func interfaceStatuses() -> [InterfaceStatus] {
        queue.sync {
            drainAndRefresh()
            refreshPolicyIfChanged()
            return snapshot.links.values.sorted { $0.index < $1.index }
                .map { InterfaceStatus(link: $0, addresses: snapshot.addresses) }
        }
    }

    /// The resolver's configuration changed: `supportsDNS` is read again with the next evaluation.
    func resolverConfigurationChanged() {
        dispatchPrecondition(condition: .onQueue(queue))
        cachedSupportsDNS = nil
    }

    /// Counters for tests and logs. Blocks for one hop onto the queue.
    var currentCounters: EngineCounters { queue.sync { counters } }

    // MARK: - Events

    private func handleReadable() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let sockets else { return }
        apply(sockets.events.drain(), from: sockets)
    }

    /// Brings the snapshot up to date with a drain and re-evaluates what it can have moved.
    ///
    /// A change of an available link (or of its addresses), a rule, a nexthop or an overrun can
    /// move any target: all are evaluated again. A route event moves only the destinations inside
    /// its prefix (all of them when the prefix covers a default-route probe), and a change of links
    /// that are available neither before nor after it (a container's veth) only the targets that
    /// leave by them or had no route (`LinkChanges`); with only those, just the subscribers they
    /// can move are asked about again.
    private func apply(_ result: DrainResult, from sockets: EngineSockets) {
        count(result)
        if result.overrun { scheduleResync() }
        guard result.linksOrAddressesChanged || result.routesChanged else { return }
        let previous = snapshot
        if result.linksOrAddressesChanged { snapshot = sockets.freshSnapshot() }
        let links = LinkChanges(from: previous, to: snapshot)
        var changes = result.routeChanges
        guard !links.isEmpty || !changes.isEmpty else { return }
        if result.hadDeletions && links.touchesAvailableLinks {
            // Deleting an available link or one of its addresses moves the routes of its own prefixes: look again at everything.
            changes.isBroad = true
        }
        let unchanged = reevaluate(after: changes, links: links)
        if result.isSingleRouteDeletion {
            // One route deleted, nothing else: a monitor whose path the first look changed saw
            // the route gone; only those it left as they were may have met it still there.
            var look = SecondLook(movesDefaultRoutes: changes.isBroad || changes.affectsDefaultRoutes)
            for core in unchanged { look.cores[ObjectIdentifier(core)] = core }
            scheduleSecondLook(look)
        } else if result.hadDeletions {
            scheduleSecondLook(SecondLook(routes: changes, links: links))
        }
    }

    /// Re-evaluates what `changes` and `links` can have moved, and `named` monitors besides.
    ///
    /// - Returns: the monitors evaluated again whose path did not change.
    @discardableResult
    private func reevaluate(after changes: RouteChanges, links: LinkChanges, alsoLookingAt named: [MonitorCore] = []) -> [MonitorCore] {
        let isBroad = links.touchesAvailableLinks || changes.isBroad || changes.affectsDefaultRoutes
        var cores: [MonitorCore]
        if isBroad {
            routingGeneration &+= 1
            cores = Array(subscribers.values)
        } else {
            counters.scopedReevaluations += 1
            cores = subscribers.values.filter { core in
                if links.mayMove(core.target, lastInterface: core.currentInterfaceIndex) { return true }
                guard !changes.isEmpty else { return false }
                let questions = Evaluator.questions(for: core.target, in: snapshot, resolution: resolution(for: core.target))
                return questions?.contains(where: changes.affects) ?? false
            }
            let covered = Set(cores.map(ObjectIdentifier.init))
            cores += named.filter { !covered.contains(ObjectIdentifier($0)) }
        }
        let unchanged = deliver(to: cores)
        if isBroad { resolveHostsIfNetworkMoved(linksOrAddressesMoved: links.touchesAvailableLinks) }
        return unchanged
    }

    /// Names resolve again when links or addresses changed, or a default route's verdict did:
    /// the answer of a split-horizon or link-local name server may depend on them.
    private func resolveHostsIfNetworkMoved(linksOrAddressesMoved: Bool) {
        guard !hosts.isEmpty, let sockets else { return }
        let oracle = RouteOracle(socket: sockets.lookup)
        let verdicts = [RouteQuestion.defaultRoute(.ipv4), RouteQuestion.defaultRoute(.ipv6)].map {
            Evaluator.verdict(for: oracle.answer($0), in: snapshot)
        }
        if linksOrAddressesMoved || verdicts != defaultRouteVerdicts {
            defaultRouteVerdicts = verdicts
            resolveAllHosts()
        }
    }

    /// Looks again, shortly, at what a deletion may have moved: the kernel announces a deleted
    /// route before it removes it, and no later message tells when it is gone. Deletions within the
    /// delay share one second look; dedupe keeps it silent when nothing moved.
    private func scheduleSecondLook(_ look: SecondLook) {
        guard !look.isEmpty else { return }
        if var pending = secondLook {
            pending.formUnion(look)
            secondLook = pending
            return
        }
        secondLook = look
        // The waiter's thread runs it: one wake-up, where `asyncAfter` costs dispatch two.
        waiter?.wake(at: .now() + Self.secondLookDelay)
    }

    /// The second look's time has come (on the queue, from the waiter).
    private func secondLookDue() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let pending = secondLook else { return }
        secondLook = nil
        guard sockets != nil else { return }
        counters.secondLooks += 1
        if pending.movesDefaultRoutes { routingGeneration &+= 1 }
        let named = pending.cores.values.filter { subscribers[ObjectIdentifier($0)] != nil }
        reevaluate(after: pending.routes, links: pending.links, alsoLookingAt: named)
    }

    /// Reads what is queued without waiting for the event thread, so a synchronous evaluation sees
    /// every event the kernel sent before it.
    private func drainAndRefresh() {
        guard let sockets else { return }
        apply(sockets.events.drain(), from: sockets)
    }

    private func count(_ result: DrainResult) {
        counters.kernelEvents += result.messages
        if result.forgedDropped > 0 {
            counters.forgedMessagesDropped += result.forgedDropped
            logger.debug("dropped netlink messages not sent by the kernel", metadata: ["count": "\(result.forgedDropped)"])
        }
        if result.overrun {
            counters.overruns += 1
            logger.notice("netlink receive buffer overran; resyncing from fresh dumps", metadata: ["namespace": "\(namespace)"])
        }
    }

    private func scheduleResync() {
        guard !resyncScheduled else { return }
        let earliest = lastResync + Self.minimumResyncInterval
        if DispatchTime.now() >= earliest {
            resync()
        } else {
            resyncScheduled = true
            queue.asyncAfter(deadline: earliest) { [weak self] in
                guard let self else { return }
                self.resyncScheduled = false
                self.resync()
            }
        }
    }

    /// Refills the caches from fresh dumps, then re-evaluates everything: the difference reaches
    /// the monitors through the normal callbacks.
    private func resync() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let sockets else { return }
        lastResync = .now()
        counters.resyncs += 1
        routingGeneration &+= 1
        _ = sockets.events.drain()
        do {
            try sockets.events.refill(using: sockets.lookup.netlinkSocket)
        } catch {
            logger.notice("resync failed; keeping the last state", metadata: ["error": "\(error.message)"])
        }
        snapshot = sockets.freshSnapshot()
        reevaluateSubscribers()
    }

    func reevaluateSubscribers() {
        deliver(to: Array(subscribers.values))
    }

    /// Re-evaluates the subscribers that watch `name`.
    func reevaluateSubscribers(ofHost name: String) {
        deliver(to: subscribers.values.filter { $0.target == .host(name) })
    }

    /// Deliveries go out in batches of this many monitors: the first monitors hear of a change
    /// before the last are evaluated, and a batch costs one work item per callback queue.
    static let deliveryBatch = 128

    /// Evaluates `cores`' targets and delivers what changed. - Returns: the cores whose path did not change.
    @discardableResult
    private func deliver(to cores: [MonitorCore]) -> [MonitorCore] {
        guard !cores.isEmpty else { return [] }
        counters.reevaluations += 1
        var batch: [MonitorCore.PendingDelivery] = []
        batch.reserveCapacity(min(cores.count, Self.deliveryBatch))
        var unchanged: [MonitorCore] = []
        evaluate(cores.map(\.target)) { position, path in
            guard let path else { return }
            let core = cores[position]
            let (prepared, changed) = core.prepareNoting(path)
            if changed { metrics?.record(path, of: core.target) } else { unchanged.append(core) }
            guard let delivery = prepared else { return }
            batch.append(delivery)
            if batch.count == Self.deliveryBatch {
                MonitorCore.dispatch(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        MonitorCore.dispatch(batch)
        return unchanged
    }

    /// Evaluates targets against the current snapshot; each distinct kernel question is asked once.
    /// The resolution a host target is evaluated with; nil for other targets.
    private func resolution(for target: MonitorTarget) -> HostResolution? {
        guard case .host(let name) = target else { return nil }
        return hosts[name]?.resolution ?? HostResolution()
    }

    /// - Returns: nil for a name whose first resolution has not finished, unless `includingPending`.
    private func evaluate(_ targets: [MonitorTarget], includingPending: Bool = false) -> [NetworkPath?] {
        var paths: [NetworkPath?] = []
        paths.reserveCapacity(targets.count)
        evaluate(targets, includingPending: includingPending) { _, path in paths.append(path) }
        return paths
    }

    /// Evaluates `targets` in order, handing each path (nil: a name still pending) to `body` as
    /// soon as it is made; all share the pass's lookups.
    private func evaluate(_ targets: [MonitorTarget], includingPending: Bool = false,
                          each body: (Int, NetworkPath?) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let sockets else {
            for position in targets.indices { body(position, .unsatisfied(.namespaceUnavailable)) }
            return
        }
        refreshPolicyIfChanged()
        let oracle = RouteOracle(socket: sockets.lookup)
        var answers: [RouteQuestion: RouteAnswer] = [:]
        func answer(_ question: RouteQuestion) -> RouteAnswer {
            if let known = answers[question] { return known }
            let answer = oracle.answer(question)
            counters.lookups += 1
            answers[question] = answer
            return answer
        }
        if cachedSupportsDNS == nil || configurationWatcher?.isWatching != true {
            cachedSupportsDNS = nameServers.refresh()
        }
        let supportsDNS = cachedSupportsDNS ?? false
        // The order of `availableInterfaces` needs each link's default-route metric only when
        // there are two links to order; it is asked once per routing generation.
        let availableLinks = Evaluator.availableLinks(in: snapshot)
        var preference: [Int: UInt32] = [:]
        if availableLinks.count > 1 {
            if preferenceCache?.generation != routingGeneration {
                preferenceCache = (routingGeneration, defaultRouteMetrics(of: availableLinks, answer))
            }
            preference = preferenceCache!.metrics
        }
        // One ordered list for the pass; each path moves its own interface to the front.
        let available = Evaluator.availableInterfaces(ordering: availableLinks, preference: preference)
        // Address targets with the same answer have the same path: made once per pass, so ten
        // thousand monitors behind one default route share one evaluation (and one path's storage).
        var sharedPaths: [PathSharingKey: NetworkPath] = [:]
        var batchStart = 0
        while batchStart < targets.count {
            let batch = batchStart..<min(batchStart + Self.deliveryBatch, targets.count)
            batchStart = batch.upperBound
            // Each target's questions once; the batch's new destinations asked together, one
            // sendmsg for many.
            let asked = batch.map { position -> (resolution: HostResolution?, questions: [RouteQuestion]?) in
                let resolution = resolution(for: targets[position])
                return (resolution, Evaluator.questions(for: targets[position], in: snapshot, resolution: resolution))
            }
            askTogether(asked.flatMap { $0.questions ?? [] }, into: &answers, using: sockets.lookup)
            for (position, (resolution, questions)) in zip(batch, asked) {
                let target = targets[position]
                if resolution?.state == .pending && !includingPending {
                    body(position, nil)
                    continue
                }
                let targetAnswers = (questions ?? []).map(answer)
                let key = PathSharingKey(target: target, questions: questions, answers: targetAnswers)
                if let key, let shared = sharedPaths[key] {
                    body(position, shared)
                    continue
                }
                let path = Evaluator.evaluate(target, questions: questions, answers: targetAnswers, in: snapshot,
                                              supportsDNS: supportsDNS, resolution: resolution, preference: preference,
                                              available: available)
                if let key { sharedPaths[key] = path }
                body(position, path)
            }
        }
    }
}

extension NetlinkEngine {
    /// Asks the kernel, pipelined, for the distinct destination questions among `questions` that
    /// `answers` lacks, and records the answers there. (Default-route questions take probes in
    /// turn and are asked one by one when met.)
    fileprivate func askTogether(_ questions: [RouteQuestion], into answers: inout [RouteQuestion: RouteAnswer],
                                 using socket: RouteLookupSocket) {
        var seen = Set<RouteQuestion>()
        var requests: [RouteRequest] = []
        for question in questions {
            guard case .destination(let request) = question, answers[question] == nil, seen.insert(question).inserted else { continue }
            requests.append(request)
        }
        guard requests.count > 1 else { return }
        for (request, found) in zip(requests, socket.lookup(requests)) {
            answers[.destination(request)] = found
        }
        counters.lookups += requests.count
    }

    /// The metric of the best default route leaving by each of `links` (the available ones), for
    /// the order of `availableInterfaces`. Its lookups go through the pass's shared answers, so a
    /// filtered general-path monitor reuses them.
    fileprivate func defaultRouteMetrics(of links: [LinkState], _ answer: (RouteQuestion) -> RouteAnswer) -> [Int: UInt32] {
        var metrics: [Int: UInt32] = [:]
        for link in links {
            for family in [IPAddress.Family.ipv4, .ipv6] {
                if case .route(let route) = answer(.defaultRoute(family, outputInterface: link.index)) {
                    metrics[link.index] = min(metrics[link.index] ?? .max, route.metric)
                }
            }
        }
        return metrics
    }

    /// Classifies the links again when `ReachabilitySettings.interfacePolicy` changed.
    func refreshPolicyIfChanged() {
        let generation = ReachabilitySettings.interfacePolicyWithGeneration.1
        if generation != policyGeneration, let sockets {
            policyGeneration = generation
            snapshot = sockets.freshSnapshot()
            routingGeneration &+= 1
        }
    }

    /// The namespace is gone: close the sockets (they kept the kernel's namespace alive), tell
    /// every monitor, stop resolving, and leave the registry.
    fileprivate func namespaceVanished() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard sockets != nil else { return }
        logger.notice("monitored network namespace is gone", metadata: ["namespace": "\(namespace)"])
        waiter?.stop()
        waiter = nil  // its pipe closes once its thread has ended too
        sockets = nil
        vanishWatcher = nil
        configurationWatcher = nil
        for name in hosts.keys {
            hosts[name]?.timer?.cancel()
            hosts[name]?.timer = nil
            hosts[name]?.releaseWaiters()
        }
        resolverPoolIfStarted?.stop()
        EngineRegistry.forget(self)
        for core in subscribers.values {
            core.receive(.unsatisfied(.namespaceUnavailable))
        }
    }

    /// Whether the namespace vanished; a blocking hop onto the queue.
    var hasVanished: Bool { queue.sync { sockets == nil } }
}

/// What the engine has done, for tests, logs and benchmarks.
struct EngineCounters: Sendable, Equatable {
    var kernelEvents = 0
    var lookups = 0
    var reevaluations = 0
    var overruns = 0
    var resyncs = 0
    var forgedMessagesDropped = 0
    var resolutions = 0
    /// Passes that asked again only for the targets inside the prefixes of route events.
    var scopedReevaluations = 0
    /// Passes made shortly after a deletion, which the kernel announces before finishing it.
    var secondLooks = 0
}

/// Both sockets of an engine, made together inside the namespace and freed together.
final class EngineSockets {
    let events: KernelEventSocket
    let lookup: RouteLookupSocket
    let inspector: LinkInspector

    /// Must run inside the namespace: every socket stays bound to the namespace it was made in.
    init(namespaceIsProcessOwn: Bool) throws(NetlinkError) {
        events = try KernelEventSocket()
        lookup = try RouteLookupSocket()
        inspector = LinkInspector(namespaceIsProcessOwn: namespaceIsProcessOwn)
    }

    /// Links and addresses from the caches, with each link's device traits.
    func freshSnapshot() -> KernelSnapshot {
        var snapshot = events.snapshot()
        inspector.inspect(&snapshot.links)
        return snapshot
    }
}
