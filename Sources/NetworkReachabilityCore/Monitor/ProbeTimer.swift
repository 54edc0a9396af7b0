import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch

/// A prober's armed re-probe timer: on the boot clock its poll loop watches, or, where no such
/// clock could be made, on the loop's own timers (which stand still while the machine sleeps).
enum ProbeTimer {
    case bootClock(BootClockTimer)
    case waiter(WatchToken)

    /// Stops the timer; its action does not run.
    func cancel(on waiter: EventWaiter?) {
        switch self {
        case .waiter(let token): waiter?.cancel(token)
        case .bootClock(let clock): clock.disarm()
        }
    }

    /// Arms `action` to run on the loop's queue `delay` from now: on `clock` when there is one
    /// (the loop runs, when it expires, what the prober holds as its current clock action).
    static func arm(after delay: Duration, clock: BootClockTimer?, waiter: EventWaiter,
                    _ action: @escaping @Sendable () -> Void) -> ProbeTimer {
        if let clock, clock.arm(after: delay) { return .bootClock(clock) }
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        return .waiter(waiter.schedule(at: .now() + .nanoseconds(Int(nanoseconds)), action))
    }

    /// A poll loop of the prober's own, on `queue`, watching a boot-clock timer when one can be
    /// made; when it expires the loop runs `currentAction()` (nil: the timer was dropped meanwhile).
    /// - Returns: nils when no loop can be made (descriptors or threads out): then no timer at all.
    static func makeLoop(queue: DispatchQueue, currentAction: @escaping @Sendable () -> (@Sendable () -> Void)?)
        -> (EventWaiter?, BootClockTimer?) {
        let clock = BootClockTimer()
        // Without a clock there is no descriptor to poll (-1 is skipped): the loop keeps only timers.
        let waiter = try? EventWaiter(fileDescriptor: clock?.descriptor ?? -1, queue: queue, keepAlive: (clock as AnyObject?) ?? queue,
                                      readable: {
                                          clock?.drain()
                                          currentAction()?()
                                      })
        return waiter == nil ? (nil, nil) : (waiter, clock)
    }
}
