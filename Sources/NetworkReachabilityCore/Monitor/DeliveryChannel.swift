import Dispatch
import ReachabilityModel

/// The one channel from the engine to a monitor's queue: numbered, deduplicated, gated by schedule.
///
/// Every state a monitor's callbacks see goes through it: the engine's paths, the probe's answers
/// and the current state handed to a face set while scheduled. `enqueue` numbers a state for the
/// queue unless it equals the one queued last; `admit`, on the queue, lets a delivery run only if
/// it belongs to the current schedule and is newer than the last that ran, so an older state never
/// runs after a newer one, even on a concurrent queue. A value kept under the monitor's lock.
struct DeliveryChannel {
    /// One numbered state on its way to the queue.
    struct Delivery: Sendable {
        var path: NetworkPath
        var sequence: UInt64
        var generation: UInt64
    }

    /// Where deliveries run; nil while unscheduled.
    private(set) var queue: DispatchQueue?
    /// Bumped by every schedule, unschedule and teardown: deliveries of an older one are dropped.
    private var generation: UInt64 = 0
    private var sequence: UInt64 = 0
    private var lastAdmitted: UInt64 = 0
    private var lastQueued: NetworkPath?

    /// Starts a new schedule on `queue` (nil: none). Deliveries of the old one will not run.
    mutating func reschedule(on queue: DispatchQueue?) {
        generation &+= 1
        self.queue = queue
        lastQueued = nil
    }

    /// Numbers `path` for the queue, unless it equals the state queued last; `again` queues it
    /// anyway (a face set on a scheduled monitor gets the current state). nil when unscheduled.
    mutating func enqueue(_ path: NetworkPath, again: Bool = false) -> (DispatchQueue, Delivery)? {
        guard let queue, again || lastQueued != path else { return nil }
        lastQueued = path
        sequence &+= 1
        return (queue, Delivery(path: path, sequence: sequence, generation: generation))
    }

    /// On the queue: whether `delivery` may run (it is of this schedule and newer than the last that ran).
    mutating func admit(_ delivery: Delivery) -> Bool {
        guard delivery.generation == generation, delivery.sequence > lastAdmitted else { return false }
        lastAdmitted = delivery.sequence
        return true
    }
}
