import Dispatch
@testable import NetworkReachabilityCore
@testable import ReachabilityDelivery
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

extension MonitorCore {
    /// Schedules on `queue` as `PathMonitor.setDispatchQueue(_:)` does (no hop), or unschedules with nil.
    func setQueue(_ queue: DispatchQueue?) {
        _ = reschedule { _ in .move(to: queue.map { MonitorSchedule(queue: $0) }) }
    }

    /// Records every path the core's path handler gets, scheduled on a new serial queue: the
    /// setup most delivery tests start from.
    func scheduleRecordingPaths() -> (queue: DispatchQueue, paths: Recorder<NetworkPath>) {
        let queue = DispatchQueue(label: "test.delivery")
        let paths = Recorder<NetworkPath>()
        pathHandler = { paths.append($0) }
        setQueue(queue)
        return (queue, paths)
    }
}
