import ReachabilityLoop
import ReachabilityModel

/// What a connectivity prober probes for: a monitor, as the layer above the prober keeps one. The
/// prober holds its subscribers weakly, by identity and through this protocol, never as a
/// monitor type.
package protocol ConnectivitySubscriber: AnyObject, Sendable {
    /// The current epoch of the subscriber's path and what an answer for it depends on, when it
    /// wants probing now: a probe set, a satisfied path, and someone listening (scheduled or
    /// iterated), unless `evenIfIdle` (a `probeNow`).
    func connectivityEpoch(evenIfIdle: Bool) -> (UInt64, ConnectivityKey)?

    /// A probe's answer for `epoch`; the subscriber drops it when its path moved on since.
    func applyConnectivity(_ answer: ConnectivityAnswer, epoch: UInt64)
}

/// What a probe's answer depends on: the path's interface, its gateways and the network's
/// announced captive-portal API. Monitors whose paths have equal keys share one answer.
package struct ConnectivityKey: Hashable, Sendable {
    package var interfaceIndex: Int?
    package var gateways: [String]
    /// The network's captive-portal API: a new announcement is asked at once.
    package var captivePortalAPI: String?

    package init(_ path: NetworkPath) {
        interfaceIndex = path.interface?.index
        gateways = path.gateways.map { "\($0)" }
        captivePortalAPI = path.captivePortalAPI
    }

    /// The same interface and gateways: only the announced API may differ.
    package func isSameNetwork(as other: ConnectivityKey) -> Bool {
        interfaceIndex == other.interfaceIndex && gateways == other.gateways
    }
}
