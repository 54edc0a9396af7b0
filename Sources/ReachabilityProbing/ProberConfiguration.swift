import ReachabilityLoop
import ReachabilityModel

/// What a prober does: probe (`probe`), and fetch the network's captive-portal API when one is
/// announced, which a probe always does and `fetchesAPIAlone` asks for without one. Monitors of a
/// namespace with equal configurations share one prober, so one fetch serves them all.
package struct ProberConfiguration: Hashable, Sendable {
    package var probe: ConnectivityProbe?
    /// `PathMonitor.fetchesCaptivePortalAPI`: the API without a probe.
    package var fetchesAPIAlone = false
    /// `PathMonitor.captivePortalAPICAFile`: the API's roots; nil: the probe's, else the system's.
    package var apiCAFile: String?

    package init(probe: ConnectivityProbe? = nil, fetchesAPIAlone: Bool = false, apiCAFile: String? = nil) {
        self.probe = probe
        self.fetchesAPIAlone = fetchesAPIAlone
        self.apiCAFile = apiCAFile
    }

    /// What decides sharing: with a probe the API is fetched anyway, so a monitor that also asked
    /// for it alone shares the prober of those that did not.
    package var shared: ProberConfiguration {
        var shared = self
        if probe != nil { shared.fetchesAPIAlone = false }
        return shared
    }

    /// Nothing to probe or fetch: no prober.
    package var isEmpty: Bool { probe == nil && !fetchesAPIAlone }
    /// One run's deadline: the probe's, else the default.
    package var timeout: Duration { probe?.timeout ?? ConnectivityProbe.defaultTimeout }
    /// The time between runs while `full`, and the backoff's ceiling: the probe's, else 300 s.
    package var interval: Duration { probe?.interval ?? .seconds(300) }
    /// The roots the API's certificate is checked against; nil: the system's store.
    package var apiRoots: String? { apiCAFile ?? probe?.caFile }
}
