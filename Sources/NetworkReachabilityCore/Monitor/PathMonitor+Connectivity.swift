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
        get { core.connectivityProber?.probe }
        set {
            guard newValue != connectivityProbe else { return }
            core.setConnectivityProber(newValue.flatMap { ProberRegistry.prober(for: $0, in: namespace) })
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
