import ReachabilityLoop
import ReachabilitySystem

/// What an engine tells others of what it did: its counters, published to other threads as they
/// move (tests and logs read them right after a callback, and deliveries leave in the middle of
/// a turn), and to swift-metrics once a turn.
struct EngineReport {
    /// What other threads read without visiting the loop.
    let published: LockedState<EnginePublication>
    /// swift-metrics; nil (and free) when the process bootstrapped no backend.
    let metrics: EngineMetrics?
    var counters = EngineCounters() {
        didSet {
            let counters = counters
            published.withLock { $0.counters = counters }
        }
    }
    /// The counters as swift-metrics last heard them.
    private var heard = EngineCounters()

    init(published: LockedState<EnginePublication>, metrics: EngineMetrics?) {
        self.published = published
        self.metrics = metrics
    }

    /// Tells swift-metrics what the counters did this turn, once a turn and only when they moved.
    mutating func endTurn() {
        guard let metrics, counters != heard else { return }
        metrics.publish(from: heard, to: counters)
        heard = counters
    }

    /// The namespace vanished: readers learn it without visiting the loop, which has stopped.
    func publishVanished() {
        published.withLock { $0.vanished = true }
    }
}
