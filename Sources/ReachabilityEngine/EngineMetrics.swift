import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import CoreMetrics

/// The engine's swift-metrics: counters labelled by namespace, and each target's status as a gauge.
///
/// Made only when the process bootstrapped a metrics backend (`MetricsSystem.bootstrap`) before
/// the engine of the namespace started: with swift-metrics' no-op factory an engine holds nil and
/// pays one nil check per counter update, no metric object and no allocation.
///
/// | name | kind | dimensions | counts |
/// | --- | --- | --- | --- |
/// | `network_reachability_kernel_events_total` | counter | namespace | netlink messages from the kernel |
/// | `network_reachability_overruns_total` | counter | namespace | receive-buffer overruns (ENOBUFS) |
/// | `network_reachability_resyncs_total` | counter | namespace | resyncs from fresh dumps after an overrun |
/// | `network_reachability_forged_messages_dropped_total` | counter | namespace | messages not sent by the kernel, dropped |
/// | `network_reachability_captive_portal_announcements_refused_total` | counter | namespace | RA captive-portal options refused |
/// | `network_reachability_lookups_total` | counter | namespace | route lookups (RTM_GETROUTE) |
/// | `network_reachability_resolutions_total` | counter | namespace | host-name resolutions |
/// | `network_reachability_callbacks_delivered_total` | counter | namespace | deliveries that ran a monitor's callbacks |
/// | `network_reachability_status` | gauge | namespace, target | `ReachabilityStatus.rawValue`: -1 unknown, 0 not reachable, 1 WWAN, 2 WiFi |
package final class EngineMetrics: Sendable {
    private let namespace: String
    private let factory: any MetricsFactory
    private let kernelEvents: Counter
    private let overruns: Counter
    private let resyncs: Counter
    private let forgedMessagesDropped: Counter
    private let refusedAnnouncements: Counter
    private let lookups: Counter
    private let resolutions: Counter
    private let callbacksDelivered: Counter
    /// One gauge per target, made at its first status.
    private let gauges = LockedState<[String: Gauge]>([:])

    /// The metrics of an engine of `namespace`; nil when no backend is bootstrapped.
    package static func make(namespace: NetworkNamespace, factory: any MetricsFactory = defaultFactory) -> EngineMetrics? {
        factory is NOOPMetricsHandler ? nil : EngineMetrics(namespace: namespace.description, factory: factory)
    }

    private init(namespace: String, factory: any MetricsFactory) {
        self.namespace = namespace
        self.factory = factory
        func counter(_ name: String) -> Counter {
            Counter(label: "network_reachability_\(name)_total", dimensions: [("namespace", namespace)], factory: factory)
        }
        kernelEvents = counter("kernel_events")
        overruns = counter("overruns")
        resyncs = counter("resyncs")
        forgedMessagesDropped = counter("forged_messages_dropped")
        refusedAnnouncements = counter("captive_portal_announcements_refused")
        lookups = counter("lookups")
        resolutions = counter("resolutions")
        callbacksDelivered = counter("callbacks_delivered")
    }

    /// Publishes what the engine's own counters gained (`NetlinkEngine.counters`' `didSet`).
    package func publish(from old: EngineCounters, to new: EngineCounters) {
        func add(_ counter: Counter, _ delta: Int) { if delta > 0 { counter.increment(by: delta) } }
        add(kernelEvents, new.kernelEvents - old.kernelEvents)
        add(overruns, new.overruns - old.overruns)
        add(resyncs, new.resyncs - old.resyncs)
        add(forgedMessagesDropped, new.forgedMessagesDropped - old.forgedMessagesDropped)
        add(refusedAnnouncements, new.refusedAnnouncements - old.refusedAnnouncements)
        add(lookups, new.lookups - old.lookups)
        add(resolutions, new.resolutions - old.resolutions)
    }

    /// A delivery ran a monitor's callbacks.
    package func callbackDelivered() {
        callbacksDelivered.increment()
    }

    /// The target's new status.
    package func record(_ path: NetworkPath, of target: MonitorTarget) {
        let label = target.description
        let gauge = gauges.withLock { gauges in
            if let gauge = gauges[label] { return gauge }
            let gauge = Gauge(label: "network_reachability_status", dimensions: [("namespace", namespace), ("target", label)], factory: factory)
            gauges[label] = gauge
            return gauge
        }
        gauge.record(path.reachabilityStatus.rawValue)
    }
}
