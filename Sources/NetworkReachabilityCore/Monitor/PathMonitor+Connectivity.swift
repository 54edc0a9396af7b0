import ReachabilityDelivery
import ReachabilityProbing
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
/// Connectivity probing on a monitor: whether the internet, or a service, answers
/// over the path, beside the flags that say only whether a packet would leave.
extension PathMonitor {
    /// The probe whose answers fill ``NetworkPath/connectivity`` and ``NetworkPath/portalURL``;
    /// nil (the default): nothing is sent and connectivity stays `unknown`.
    ///
    /// Works with every initialiser, the general path included. The probe is made inside the
    /// monitor's namespace, when the path becomes satisfied or its interface or gateways change,
    /// and when the monitor is started again (the path delivered then says `unknown`, never an
    /// answer from before; the answer follows as another update), every
    /// `interval` while `full`, and from 5 s doubling up to the interval while `limited` or
    /// `portal`. An unsatisfied path is `none` at once and cancels a probe in flight. Answers are
    /// delivered to the path handler, the delegate and the async sequence like any other path
    /// change; the flags callbacks never see them, since the flags do not change.
    ///
    /// ```swift
    /// monitor.connectivityProbe = try ConnectivityProbe(url: "http://192.0.2.1/generate_204")
    /// ```
    public var connectivityProbe: ConnectivityProbe? {
        get { proberConfiguration.probe }
        set { proberConfiguration.probe = newValue }
    }

    /// Whether the monitor fetches the network's captive-portal API (RFC 8908) without a probe;
    /// false (the default): only a ``connectivityProbe`` fetches it.
    ///
    /// When the path's interface has an announced API (``NetworkPath/captivePortalAPI``), a
    /// monitor with a probe, or with this set, GETs it over HTTPS (`Accept:
    /// application/captive+json`, the probe's TLS rules, a 16 KiB body, strict JSON) before each
    /// probe, and again when the announcement changes; monitors of a namespace share the fetch.
    /// Its answer is ``NetworkPath/captivePortal``. `captive: true` makes connectivity `portal`
    /// with ``NetworkPath/portalURL`` the API's `user-portal-url` (no probe is sent); `captive:
    /// false` leaves the answer to the probe, or makes it `full` without one. An API that fails
    /// or answers garbage leaves `captivePortal` nil and the probe's answer (without a probe,
    /// `unknown`), and is retried with the probe's backoff.
    ///
    /// ```swift
    /// monitor.fetchesCaptivePortalAPI = true
    /// ```
    public var fetchesCaptivePortalAPI: Bool {
        get { proberConfiguration.fetchesAPIAlone }
        set { proberConfiguration.fetchesAPIAlone = newValue }
    }

    /// A PEM file of the root certificates the captive-portal API's certificate is checked
    /// against, in place of the system's (a private CA); nil (the default): the probe's
    /// ``ConnectivityProbe/caFile``, else the system's trust store.
    public var captivePortalAPICAFile: String? {
        get { proberConfiguration.apiCAFile }
        set { proberConfiguration.apiCAFile = newValue }
    }

    /// What the monitor's prober does; setting it moves the monitor to the prober of the new one.
    private var proberConfiguration: ProberConfiguration {
        get { proberSettings.withLock { $0 } }
        set {
            let changed = proberSettings.withLock { settings in
                defer { settings = newValue }
                return settings != newValue
            }
            guard changed else { return }
            core.setConnectivityProber(ProberRegistry.prober(for: newValue, in: namespace, loop: engine?.loop,
                                                             resolver: engine?.resolverPool))
        }
    }

    /// Probes now and returns the path with the answer.
    ///
    /// Without a probe it returns ``currentPath`` (connectivity `unknown`); with an unsatisfied
    /// path it returns at once (connectivity `none`). It works on a monitor that is not started
    /// too; monitors sharing the probe get the answer as well. It waits at most the probe's timeout,
    /// plus the time a probe already in flight needs.
    public func checkConnectivity() async -> NetworkPath {
        guard let prober = core.connectivityProber else { return currentPath }
        if !core.isActive { _ = currentPath }
        await prober.probeNow(for: core)
        return currentPath
    }

    /// ``checkConnectivity()`` for a caller that must not start a task: `done` runs once the
    /// answer is in ``currentPath`` (on the prober's queue; at once without a probe).
    ///
    /// The command's `check --probe` waits with it: a task's first worker thread makes libdispatch
    /// open its epoll descriptor, which traps (SIGILL) when descriptors run out.
    package func checkConnectivity(then done: @escaping @Sendable () -> Void) {
        guard let prober = core.connectivityProber else { return done() }
        if !core.isActive { _ = currentPath }
        prober.probeNow(for: core, then: done)
    }
}
