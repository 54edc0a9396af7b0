import CoreMetrics
import ReachabilityModel
import ReachabilitySystem

/// The engine's seams for tests, the one file of this target that holds `#if DEBUG`: what a
/// release build answers in their place is here too, so production code has no `#if`.

extension NetlinkEngine {
    #if DEBUG
    /// Runs in `init` after the sockets are open and before the namespace is watched, the window
    /// in which a namespace can vanish under a new engine.
    static let afterSocketsOpened = LockedState<(@Sendable (NetworkNamespace) -> Void)?>(nil)
    #endif

    /// The sockets are open: the test hook runs, if one is set (never in a release build).
    static func socketsOpened(in namespace: NetworkNamespace) {
        #if DEBUG
        afterSocketsOpened.withLock { $0 }?(namespace)
        #endif
    }
}

extension EngineMetrics {
    #if DEBUG
    /// Set by tests (`@testable`) to observe an engine made after it; nil: swift-metrics' own factory.
    package static var factoryForTesting: (any MetricsFactory)? {
        get { testingFactory.withLock { $0 } }
        set { testingFactory.withLock { $0 = newValue } }
    }
    private static let testingFactory = LockedState<(any MetricsFactory)?>(nil)
    #endif

    /// The factory an engine's metrics are made with: swift-metrics' own, or a test's.
    static var defaultFactory: any MetricsFactory {
        #if DEBUG
        factoryForTesting ?? MetricsSystem.factory
        #else
        MetricsSystem.factory
        #endif
    }
}

#if DEBUG
extension EngineRegistry {
    /// How many engines are alive, for tests of sharing and teardown.
    package static var liveEngineCount: Int {
        engines.withLock { $0.values.filter { $0.engine != nil }.count }
    }
}

extension EngineHandle {
    /// The engine's counters as of its last turn, for tests.
    package var currentCounters: EngineCounters { published.withLock { $0.counters } }
}
#endif
