import ReachabilityEngine
import ReachabilityModel

extension MonitorCore: PathSubscriber {
    /// From the engine: publishes `enginePath`; its delivery waits in the loop thread's outbox for
    /// the engine's batch, or goes at once off a loop's thread.
    package func take(_ enginePath: NetworkPath) -> Bool {
        var update = publish(enginePath)
        // Taken out of the update, not copied from it.
        if let delivery = update.delivery.take() {
            if let outbox = EngineThreadOutbox.current { outbox.queue(delivery) } else { delivery.send() }
        }
        return update.changed
    }
}
