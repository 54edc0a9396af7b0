import ReachabilityEngine
import ReachabilityModel

extension MonitorCore: PathSubscriber {
    /// From the engine: publishes `enginePath`; its delivery waits in the loop thread's outbox for
    /// the engine's batch, or goes at once off a loop's thread.
    package func take(_ enginePath: NetworkPath) -> Bool {
        let (changed, due, event) = enqueue(enginePath)
        // Moved, not copied, from here into the outbox (`consume`): a copy counts the monitor,
        // path and hop up and down once more, ten thousand times a change for ten thousand
        // monitors (one taken out of a `PendingDelivery` was copied).
        switch consume due {
        case .none:
            connectivityEvent(event)
        case .some(let (queue, delivery)):
            if let outbox = EngineThreadOutbox.current {
                outbox.queue(DeliveryWork(core: self, delivery: consume delivery, then: event), on: queue)
            } else {
                PendingDelivery(core: self, queue: queue, delivery: delivery, then: event).send()
            }
        }
        return changed
    }
}
