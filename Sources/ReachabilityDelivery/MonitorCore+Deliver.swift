import ReachabilityEngine
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch

extension MonitorCore {
    /// Sends each queue its deliveries as one work item, in the order given: the engine's batches
    /// of many monitors cost one `async` per callback queue, not one per monitor. Those of monitors
    /// scheduled on the engine's thread run there after the turn, when this is that thread.
    package static func deliver(_ deliveries: [PendingDelivery]) {
        guard deliveries.count > 1 else {
            deliveries.first?.send()
            return
        }
        let outbox = EngineThreadOutbox.current
        var byQueue: [ObjectIdentifier: [PendingDelivery]] = [:]
        var queues: [DispatchQueue] = []
        for pending in deliveries {
            if pending.delivery.onEngineThread, let outbox {
                outbox.append(pending)
                continue
            }
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

extension MonitorCore: PathSubscriber {
    /// From the engine: publishes `enginePath`; its delivery waits in the loop thread's outbox for
    /// the engine's batch, or goes at once off a loop's thread.
    package func take(_ enginePath: NetworkPath) -> Bool {
        let update = publish(enginePath)
        if let delivery = update.delivery {
            if let outbox = EngineThreadOutbox.current { outbox.queue(delivery) } else { delivery.send() }
        }
        return update.changed
    }
}
