import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch

/// A face set on a scheduled monitor gets the current state first, as one set before scheduling does.
extension MonitorCore {
    /// A face set on a scheduled monitor gets the current state first, as one set before
    /// scheduling does: the first delivery may have run before it existed. The faces that saw it
    /// already are not told again (`MonitorFaces.due`). A name still being resolved has nothing to
    /// redeliver: its first result comes from the engine.
    ///
    /// One locked step makes `change` (sets the face), reads the current state and queues it: a
    /// newer state the engine stores between a read and a separate queueing would be overtaken by
    /// the older one, which would take the higher sequence number and be delivered last.
    func redeliverCurrent(after change: (inout State) -> Void = { _ in }) {
        Self.runBeforeRedelivery()
        let work = state.withLock { state -> (DispatchQueue, DeliveryChannel.Delivery)? in
            change(&state)
            return state.hasState ? state.channel.enqueue(state.current, again: true, differsFromCurrent: false) : nil
        }
        guard let (queue, delivery) = work else { return }
        Update(delivery: PendingDelivery(core: self, queue: queue, delivery: delivery), changed: false).deliver()
    }
}
