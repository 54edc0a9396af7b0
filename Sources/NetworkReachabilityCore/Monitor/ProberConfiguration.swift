import ReachabilityEngine
import ReachabilityLoop
import ReachabilityModel

/// What a prober does: probe (`probe`), and fetch the network's captive-portal API when one is
/// announced, which a probe always does and `fetchesAPIAlone` asks for without one. Monitors of a
/// namespace with equal configurations share one prober, so one fetch serves them all.
struct ProberConfiguration: Hashable, Sendable {
    var probe: ConnectivityProbe?
    /// `PathMonitor.fetchesCaptivePortalAPI`: the API without a probe.
    var fetchesAPIAlone = false
    /// `PathMonitor.captivePortalAPICAFile`: the API's roots; nil: the probe's, else the system's.
    var apiCAFile: String?

    /// What decides sharing: with a probe the API is fetched anyway, so a monitor that also asked
    /// for it alone shares the prober of those that did not.
    var shared: ProberConfiguration {
        var shared = self
        if probe != nil { shared.fetchesAPIAlone = false }
        return shared
    }

    /// Nothing to probe or fetch: no prober.
    var isEmpty: Bool { probe == nil && !fetchesAPIAlone }
    /// One run's deadline: the probe's, else the default.
    var timeout: Duration { probe?.timeout ?? ConnectivityProbe.defaultTimeout }
    /// The time between runs while `full`, and the backoff's ceiling: the probe's, else 300 s.
    var interval: Duration { probe?.interval ?? .seconds(300) }
    /// The roots the API's certificate is checked against; nil: the system's store.
    var apiRoots: String? { apiCAFile ?? probe?.caFile }
}
