import Dispatch
import ReachabilityModel

/// The one channel from the engine to a monitor's queue: numbered, deduplicated, gated by schedule.
///
/// Every state a monitor's callbacks see goes through it: the engine's paths, the probe's answers
/// and the current state handed to a face set while scheduled. `enqueue` numbers a state for the
/// queue unless it equals the one queued last; `admit`, on the queue (or where the schedule's hop
/// carried it), lets a delivery run only if it belongs to the current schedule and is newer than
/// the last that ran, so an older state never runs after a newer one, even on a concurrent queue
/// or several run loops. A value kept under the monitor's lock.
struct DeliveryChannel {
    /// One numbered state on its way to the queue.
    struct Delivery: Sendable {
        package var path: NetworkPath
        package var sequence: UInt64
        package var generation: UInt64
        /// The schedule's hop, which carries the delivery on from the queue (nil: it runs there).
        package var hop: (any DeliveryHop)?
        /// Runs on the engine's thread after the turn that made it, when made there.
        var onEngineThread = false
    }

    /// Where deliveries run; nil while unscheduled.
    private(set) var schedule: MonitorSchedule?
    var queue: DispatchQueue? { schedule?.queue }
    /// Bumped by every schedule, unschedule and teardown: deliveries of an older one are dropped.
    private var generation: UInt64 = 0
    private var sequence: UInt64 = 0
    private var lastAdmitted: UInt64 = 0
    /// A state was queued in this schedule. The state queued last is then always the monitor's
    /// current state, or one equal to it (the states queued are the monitor's current ones, and
    /// one equal to the last queued is not queued): so `enqueue` is told whether a state differs
    /// from the current one, and no second reference to it is kept here.
    private var hasQueued = false

    /// Starts a new schedule (nil: none). Deliveries of the old one will not run.
    mutating func reschedule(on schedule: MonitorSchedule?) {
        generation &+= 1
        self.schedule = schedule
        hasQueued = false
    }

    /// Numbers `path`, the monitor's new current state, for the queue, unless it equals the
    /// state queued last; `again` queues it anyway (a face set on a scheduled monitor gets the
    /// current state). nil when unscheduled.
    ///
    /// - Parameter differsFromCurrent: whether `path` differs from the monitor's current state
    ///   before it: that is whether it differs from the state queued last, if any.
    mutating func enqueue(_ path: NetworkPath, again: Bool = false, differsFromCurrent: Bool) -> (DispatchQueue, Delivery)? {
        // Read in place: a copy of the schedule would count its queue and hop up and down, and
        // ten thousand monitors may share that queue.
        guard case .some = schedule else { return nil }
        guard again || !hasQueued || differsFromCurrent else { return nil }
        hasQueued = true
        sequence &+= 1
        return (schedule.unsafelyUnwrapped.queue,
                Delivery(path: path, sequence: sequence, generation: generation, hop: schedule.unsafelyUnwrapped.hop,
                         onEngineThread: schedule.unsafelyUnwrapped.onEngineThread))
    }

    /// Where the faces run (on the queue, or where its hop took it): whether `delivery` may run
    /// (it is of this schedule and newer than the last that ran).
    mutating func admit(_ delivery: Delivery) -> Bool {
        guard delivery.generation == generation, delivery.sequence > lastAdmitted else { return false }
        lastAdmitted = delivery.sequence
        return true
    }
}
