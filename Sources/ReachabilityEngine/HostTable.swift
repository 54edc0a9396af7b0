import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch

/// The names an engine resolves, with their state. Confined to the engine's loop.
struct HostEntry {
    /// One interval per monitor of the name; the shortest one drives the periodic re-resolution.
    var intervals: [Int] = []
    var resolution = HostResolution()
    var inFlight = false
    var resolveAgain = false
    /// The next re-resolution, on the engine's loop.
    var timer: WatchToken?
    var timerInterval: Int?
    /// Run when the first resolution finished (a blocked `currentPath` or a suspended `fetchCurrentPath`).
    var waiters: [@Sendable () -> Void] = []

    var shortestInterval: Int? { intervals.min() }

    /// Applies a resolver outcome by the failure rules: a definite answer replaces the addresses,
    /// a temporary failure keeps the last good ones and marks them stale.
    mutating func apply(_ outcome: ResolutionOutcome) {
        switch outcome {
        case .addresses(let addresses):
            resolution = HostResolution(state: .resolved, addresses: addresses, isStale: false)
        case .notFound:
            resolution = HostResolution(state: .notFound, addresses: [], isStale: false)
        case .noNameServer:
            resolution = HostResolution(state: .noNameServer, addresses: [], isStale: false)
        case .temporaryFailure:
            if resolution.addresses.isEmpty {
                resolution = HostResolution(state: .failed, addresses: [], isStale: false)
            } else {
                resolution.isStale = true
            }
        }
    }

    /// Wakes everyone waiting for the first resolution.
    mutating func releaseWaiters() {
        waiters.forEach { $0() }
        waiters.removeAll()
    }
}
