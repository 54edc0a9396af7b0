import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// The process's engines, one per network namespace and interface policy, made on first use and
/// gone with their last monitor.
package enum EngineRegistry {
    struct WeakEngine {
        weak var engine: EngineHandle?
    }

    /// An engine classifies links under one policy, so monitors with different policies of one
    /// namespace cannot share it.
    struct Key: Hashable {
        var identity: NamespaceIdentity
        var policy: InterfacePolicy
    }

    static let engines = LockedState<[Key: WeakEngine]>([:])

    /// The engine of `namespace` under `policy`, shared with every other monitor of the same
    /// namespace and policy (however the namespace was named: `.named` and `.path` of the same
    /// nsfs inode are one namespace).
    ///
    /// The engine is made outside the registry's lock: its namespace may vanish while it opens,
    /// and the engine then leaves the registry (`forget`), which takes the lock. A second look
    /// under the lock keeps one engine per namespace when two monitors race for a new one (the
    /// loser's engine, a few dumps, goes away unused).
    ///
    /// - Throws: `namespaceNotFound` when the namespace vanished before its engine was registered.
    package static func engine(for namespace: NetworkNamespace, policy: InterfacePolicy) throws(ReachabilityError) -> EngineHandle {
        let identity = try NamespaceEntry.identity(of: namespace)
        let key = Key(identity: identity, policy: policy)
        if let engine = engines.withLock({ $0[key]?.engine }) { return engine }
        let built = try EngineHandle(namespace: namespace, identity: identity, policy: policy)
        let engine = engines.withLock { engines -> EngineHandle in
            if let engine = engines[key]?.engine { return engine }
            engines = engines.filter { $0.value.engine != nil }
            engines[key] = WeakEngine(engine: built)
            return built
        }
        // Vanished before it was registered, its own `forget` found nothing to drop: drop it here.
        // One that vanishes later drops itself.
        if engine.vanishedBeforeNow {
            forget(identity: identity, policy: policy, loop: engine.loop)
            throw .namespaceNotFound(path: namespace.path)
        }
        return engine
    }

    /// An engine of `namespace` for work that serves its monitors whatever their interface policy
    /// (a connectivity prober's timers and names): one already open under any policy, else one
    /// opened under the default policy, which the namespace's next monitors of that policy share.
    ///
    /// - Throws: as `engine(for:policy:)`: the namespace vanished, or descriptors ran out.
    package static func engine(anyPolicyIn namespace: NetworkNamespace) throws(ReachabilityError) -> EngineHandle {
        let identity = try NamespaceEntry.identity(of: namespace)
        let open = engines.withLock { engines in
            engines.first { $0.key.identity == identity && $0.value.engine != nil }?.value.engine
        }
        if let open { return open }
        return try engine(for: namespace, policy: InterfacePolicy())
    }

    /// Drops `engine` from the registry (its namespace vanished), so the next monitor of that
    /// namespace opens it afresh, or fails when it is really gone.
    package static func forget(identity: NamespaceIdentity, policy: InterfacePolicy, loop: EventLoop<NetlinkEngine>) {
        let key = Key(identity: identity, policy: policy)
        engines.withLock { engines in
            if engines[key]?.engine?.loop === loop { engines[key] = nil }
        }
    }
}
