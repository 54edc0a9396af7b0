import Synchronization

/// The process's engines, one per network namespace, made on first use and gone with their last monitor.
enum EngineRegistry {
    private struct WeakEngine {
        weak var engine: NetlinkEngine?
    }

    private static let engines = Mutex<[NamespaceIdentity: WeakEngine]>([:])

    /// The engine of `namespace`, shared with every other monitor of the same namespace
    /// (however it was named: `.named` and `.path` of the same nsfs inode are one namespace).
    ///
    /// Creation happens under the registry's lock, so two monitors racing for a new namespace
    /// get one engine; it costs a few dumps, once per namespace.
    static func engine(for namespace: NetworkNamespace) throws(ReachabilityError) -> NetlinkEngine {
        let identity = try NamespaceEntry.identity(of: namespace)
        return try engines.withLock { (engines) throws(ReachabilityError) -> NetlinkEngine in
            if let engine = engines[identity]?.engine { return engine }
            let engine = try NetlinkEngine(namespace: namespace, identity: identity)
            engines = engines.filter { $0.value.engine != nil }
            engines[identity] = WeakEngine(engine: engine)
            return engine
        }
    }

    /// Drops `engine` from the registry (its namespace vanished), so the next monitor of that
    /// namespace opens it afresh, or fails when it is really gone.
    static func forget(_ engine: NetlinkEngine) {
        engines.withLock { engines in
            if engines[engine.identity]?.engine === engine { engines[engine.identity] = nil }
        }
    }

    /// How many engines are alive, for tests of sharing and teardown.
    static var liveEngineCount: Int {
        engines.withLock { $0.values.filter { $0.engine != nil }.count }
    }
}
