import ReachabilityLoop
import ReachabilityModel

/// What a connectivity prober probes for: a monitor's core, as delivery keeps one. The prober
/// holds its subscribers weakly, by identity and through this protocol, never as a monitor type.
package protocol ConnectivitySubscriber: AnyObject, Sendable {
    /// The current epoch of the subscriber's path and what an answer for it depends on, when it
    /// wants probing now: a probe set, a satisfied path, and someone listening (scheduled or
    /// iterated), unless `evenIfIdle` (a `probeNow`).
    func connectivityEpoch(evenIfIdle: Bool) -> (UInt64, ConnectivityKey)?

    /// A probe's answer for `epoch`; the subscriber drops it when its path moved on since.
    func applyConnectivity(_ answer: ConnectivityAnswer, epoch: UInt64)
}

/// A connectivity prober as a monitor's core sees it: told of its subscribers and their paths, and
/// asked to probe now. Delivery names no prober type; `ReachabilityProbing`'s prober conforms.
package protocol MonitorProber: AnyObject, Sendable {
    /// `core` wants probing while it listens; held weakly.
    func subscribe(_ core: any ConnectivitySubscriber)
    func unsubscribe(_ core: any ConnectivitySubscriber)
    /// A subscriber's path became satisfied or moved (a new epoch): probe it.
    func pathChanged()
    /// A subscriber's path is no longer satisfied: a probe in flight for it may stop.
    func pathWentDown()
    /// A subscriber started or stopped listening: the schedule is looked at again.
    func reconsider()
    /// Probes now for `core` (listening or not), then runs `done`; at once when nothing can be probed.
    func probeNow(for core: any ConnectivitySubscriber, then done: @escaping @Sendable () -> Void)
}

extension MonitorProber {
    /// Probes now for `core` (scheduled or not) and returns once the answer was applied, or at
    /// once when its path is not satisfied.
    package func probeNow(for core: any ConnectivitySubscriber) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            probeNow(for: core) { continuation.resume() }
        }
    }
}

/// What a probe's answer depends on: the path's interface, its gateways and the network's
/// announced captive-portal API. Monitors whose paths have equal keys share one answer.
package struct ConnectivityKey: Hashable, Sendable {
    package var interfaceIndex: Int?
    package var gateways: [String]
    /// The network's captive-portal API: a new announcement is asked at once.
    package var captivePortalAPI: String?

    package init(_ path: NetworkPath) {
        interfaceIndex = path.interfaceIndex
        gateways = path.gateways.map { "\($0)" }
        captivePortalAPI = path.captivePortalAPI
    }

    /// The same interface and gateways: only the announced API may differ.
    func isSameNetwork(as other: ConnectivityKey) -> Bool {
        interfaceIndex == other.interfaceIndex && gateways == other.gateways
    }
}
