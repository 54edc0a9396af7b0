import Dispatch

/// Where a monitor's deliveries run: its queue, and optionally a hop on from that queue.
///
/// `PathMonitor.setDispatchQueue(_:)` makes a schedule without a hop: the faces run on the queue.
/// `ReachabilityCompat` schedules on run loops with a hop, through `PathMonitor.reschedule(_:)`.
/// `PathMonitor.scheduleOnEngineThread()` makes one whose deliveries run on the library's thread
/// that made them (`EngineThreadOutbox`), and on `queue` only when that is not a loop's thread.
package struct MonitorSchedule: Sendable {
    package var queue: DispatchQueue
    package var hop: (any DeliveryHop)?
    /// The faces run on the engine's thread, right after the turn that made the delivery.
    var onEngineThread = false

    package init(queue: DispatchQueue, hop: (any DeliveryHop)? = nil) {
        self.queue = queue
        self.hop = hop
    }

    /// On the engine's thread; what another thread makes (the first state, a probe's answer, a
    /// face set while scheduled) runs on the library's own serial delivery queue.
    package static var engineThread: MonitorSchedule {
        var schedule = MonitorSchedule(queue: engineThreadFallback)
        schedule.onEngineThread = true
        return schedule
    }

    private static let engineThreadFallback = DispatchQueue(label: "network-reachability.delivery")
}

/// Carries the deliveries of a schedule on from its queue to where the faces are to run
/// (`ReachabilityCompat`'s run loops).
///
/// Only the place changes: the delivery that arrives there goes through the channel's gate and the
/// faces' deduplication as one run on the queue would, under the monitor's callout lock. So the
/// order, the schedule's gate, "no duplicates" and the context's lifetime stay the core's.
package protocol DeliveryHop: AnyObject, Sendable {
    /// Called on the schedule's queue, once per delivery, in the channel's order. Hands `perform`
    /// to where the faces run, where it may be called any number of times (once per place it was
    /// handed to); each call asks `isWanted` under the callout lock right before the faces would
    /// run, and runs them only when it answers true (then the channel's gate decides). `perform`
    /// holds no face and no context, so one handed to a place that never runs it delays nothing.
    func carry(_ perform: @escaping @Sendable (_ isWanted: () -> Bool) -> Void)
}

/// What `PathMonitor.reschedule(_:)` is told to do with the current schedule.
package enum Rescheduling {
    /// The change is not allowed: nothing changes.
    case refuse
    /// The schedule stays (its hop may have changed where it carries deliveries).
    case keep
    /// A new schedule (nil: unscheduled); the faces are told the current state first.
    case move(to: MonitorSchedule?)
}
