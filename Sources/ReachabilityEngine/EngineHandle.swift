import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch

/// How monitors, probers and other threads reach a namespace's engine: every call posts to the
/// engine's loop, and those that need an answer wait for it (inline on the loop's own thread; a
/// loop's thread serves its own loop while it waits for another, so loops never wait on each
/// other). What needs no visit, the counters and whether the namespace vanished, the loop
/// publishes at the end of each turn.
///
/// The monitors of a namespace share one handle (`EngineRegistry`); the engine's loop stops when
/// the last handle goes, and the engine is let go on its loop's thread.
package final class EngineHandle: Sendable {
    package let namespace: NetworkNamespace
    package let identity: NamespaceIdentity
    package let policy: InterfacePolicy
    /// swift-metrics; nil (and free) when the process bootstrapped no backend.
    package let metrics: EngineMetrics?
    package let loop: EventLoop<NetlinkEngine>
    private let engine: LoopBound<NetlinkEngine>
    let published: LockedState<EnginePublication>
    private let resolvers: LockedState<ResolverPool?>
    /// Where the namespace's name servers are read from, for the resolver pool.
    private let nameServerSources: NameServerSources
    /// The cores subscribed, as callers see them: a core never subscribed (a monitor only asked
    /// once, as `reachability check` does) needs no post to unsubscribe.
    private let subscribed = LockedState(Set<ObjectIdentifier>())

    /// Opens the engine's sockets inside `namespace`, reads the first snapshot, then starts its loop.
    package init(namespace: NetworkNamespace, identity: NamespaceIdentity, policy: InterfacePolicy) throws(ReachabilityError) {
        self.namespace = namespace
        self.identity = identity
        self.policy = policy
        let metrics = EngineMetrics.make(namespace: namespace)
        self.metrics = metrics
        let loop = try EventLoop<NetlinkEngine>()
        let published = LockedState(EnginePublication())
        let resolvers = LockedState<ResolverPool?>(nil)
        self.resolvers = resolvers
        let engine = try NetlinkEngine(namespace: namespace, identity: identity, policy: policy, loop: loop,
                                       published: published, resolvers: resolvers, metrics: metrics)
        let eventSocket = engine.sockets!.events.fileDescriptor
        nameServerSources = engine.resolverConfiguration.nameServers.sources
        // The thread starts last: nothing else has touched the engine before it, nothing but it after.
        try loop.start(owner: engine, eventSocket: eventSocket)
        self.loop = loop
        self.published = published
        self.engine = LoopBound(engine, on: loop.thread)
    }

    deinit {
        // The thread runs what was posted, then ends and lets the engine (and its sockets) go.
        loop.stop()
    }

    // MARK: - Reads

    /// Evaluates `target` now, with what the socket has queued absorbed first; also tells whether
    /// the path is a state (false: a name still being resolved).
    package func readNoting(_ target: MonitorTarget) -> (path: NetworkPath, isResolved: Bool) {
        if loop.inLoop { return engine.value.read(target) }
        // A typed message and the thread's own reply slot: a read allocates nothing of its own.
        let reply = ReadReply.take()
        guard loop.send(.read(target, reply: reply)) else {
            reply.abandon()
            return (.unsatisfied(.namespaceUnavailable), true)
        }
        return reply.wait()
    }

    /// `readNoting`'s path.
    package func read(_ target: MonitorTarget) -> NetworkPath {
        readNoting(target).path
    }

    /// The path of `target` now, or nil for a host name whose first resolution has not finished:
    /// one route lookup for an address, never a wait for a name (`ReachabilityManager.startMonitoring()`).
    package func readIfKnown(_ target: MonitorTarget) -> NetworkPath? {
        if loop.inLoop { return engine.value.readIfKnown(target) }
        let reply = ReadReply.take()
        guard loop.send(.readIfKnown(target, reply: reply)) else {
            reply.abandon()
            return .unsatisfied(.namespaceUnavailable)
        }
        let (path, isKnown) = reply.wait()
        return isKnown ? path : nil
    }

    /// Evaluates `target` now, like `read`, suspending the caller instead of blocking it.
    package func read(_ target: MonitorTarget) async -> NetworkPath {
        await withCheckedContinuation { continuation in
            // A post the loop accepted runs exactly once, also when the loop ends meanwhile.
            let posted = loop.execute { [engine] in continuation.resume(returning: engine.value.read(target).path) }
            if !posted { continuation.resume(returning: .unsatisfied(.namespaceUnavailable)) }
        }
    }

    /// Every link with its state, by index: `NetworkInterface.statuses(in:)`.
    package func interfaceStatuses() -> [InterfaceStatus] {
        loop.submitAndWait { [engine] in engine.value.interfaceStatuses() } ?? []
    }

    // MARK: - Subscriptions

    /// Starts delivering `core`'s evaluations: the current one at once, then one per change.
    package func subscribe(_ core: any PathSubscriber) {
        subscribed.withLock { _ = $0.insert(ObjectIdentifier(core)) }
        let done: Void? = loop.submitAndWait { [engine] in engine.value.subscribe(core) }
        if done == nil {
            _ = core.take(.unsatisfied(.namespaceUnavailable))
            LoopThread.sendQueued()
        }
    }

    /// Stops delivering to `core`. Asynchronous: `core` itself ignores evaluations once unscheduled.
    package func unsubscribe(_ core: any PathSubscriber) {
        let id = ObjectIdentifier(core)
        guard subscribed.withLock({ $0.remove(id) != nil }) else { return }
        loop.execute { [engine, subscribed] in
            // Subscribed again meanwhile (unscheduled and scheduled again at once, the schedule
            // answered inline on the loop's thread before this post ran): it is kept.
            guard !subscribed.withLock({ $0.contains(id) }) else { return }
            engine.value.unsubscribe(id)
        }
    }

    // MARK: - Host names

    /// Adds a monitor of `name`: resolves it now if it is new; sets the periodic re-resolution.
    package func registerHost(_ name: String, options: HostResolutionOptions) {
        _ = loop.submitAndWait { [engine] in engine.value.registerHost(name, options: options) }
    }

    /// Removes a monitor of `name`; the name is forgotten with its last monitor.
    package func unregisterHost(_ name: String, options: HostResolutionOptions) {
        loop.execute { [engine] in engine.value.unregisterHost(name, options: options) }
    }

    /// Blocks the caller until the first resolution of `name` finished, or `timeout` passed.
    ///
    /// Not on a loop's thread (a callback scheduled on the engine's thread): a monitor made there
    /// gets its first state by callback instead (`scheduleOnEngineThread()`).
    package func waitForFirstResolution(of name: String, timeout: Duration) {
        guard LoopThread.current == nil else { return }
        let resolved = WaitableState(false)
        let mustWait = loop.submitAndWait { [engine] in
            engine.value.awaitFirstResolution(of: name) {
                resolved.withLock { $0 = true }
                resolved.broadcast()
            }
        } ?? false
        if mustWait {
            resolved.wait(until: { $0 }, timeout: timeout) { _ in }
        }
    }

    /// Suspends (never blocks) until the first resolution of `name` finished, or `timeout` passed.
    package func firstResolution(of name: String, timeout: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = ResumeOnce(continuation)
            let posted = loop.execute { [engine, loop] in
                guard engine.value.awaitFirstResolution(of: name, then: { once.resume() }) else { return once.resume() }
                _ = loop.schedule(at: .now() + .nanoseconds(timeout.nanosecondsClamped)) { once.resume() }
            }
            if !posted { once.resume() }
        }
    }

    // MARK: - Published

    /// Whether the namespace vanished (its loop has stopped).
    package var hasVanished: Bool { published.withLock { $0.vanished } }

    /// Whether the namespace vanished, with everything posted before this call handled first (the
    /// engine's own check as it opened among it): one visit to the loop.
    var vanishedBeforeNow: Bool {
        loop.submitAndWait { [engine] in engine.value.sockets == nil } ?? true
    }

    /// The pool that resolves names in the namespace, made on first use; shared with the
    /// namespace's connectivity probers.
    package var resolverPool: ResolverPool {
        Self.resolverPool(in: resolvers, namespace: namespace, nameServerSources: nameServerSources)
    }

    package static func resolverPool(in slot: LockedState<ResolverPool?>, namespace: NetworkNamespace,
                             nameServerSources: NameServerSources) -> ResolverPool {
        slot.withLock { pool in
            if let pool { return pool }
            let made = ResolverPool(namespace: namespace, nameServerSources: nameServerSources)
            pool = made
            return made
        }
    }

    // MARK: - The seam for tests

    /// Runs `body` with the engine on its loop and returns its answer (post and wait); nil when
    /// the loop has ended. A body that blocks holds the loop, and so the engine, meanwhile.
    package func onLoop<Value>(_ body: @escaping (NetlinkEngine) -> Value) -> Value? {
        loop.submitAndWait { [engine] in body(engine.value) }
    }
}
