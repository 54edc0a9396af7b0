import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch

extension MonitorCore {
    /// Sends each queue its deliveries as one work item, in the order given: the engine's batches
    /// of many monitors cost one `async` per callback queue, not one per monitor.
    static func deliver(_ deliveries: [PendingDelivery]) {
        guard deliveries.count > 1 else {
            if let only = deliveries.first { only.queue.async { only.run() } }
            return
        }
        var byQueue: [ObjectIdentifier: [PendingDelivery]] = [:]
        var queues: [DispatchQueue] = []
        for pending in deliveries {
            let key = ObjectIdentifier(pending.queue)
            if byQueue[key] == nil { queues.append(pending.queue) }
            byQueue[key, default: []].append(pending)
        }
        for queue in queues {
            let work = byQueue[ObjectIdentifier(queue)]!
            queue.async { for pending in work { pending.run() } }
        }
    }
}
