import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch

/// A prober's armed re-probe timer, on its namespace's engine's loop: the boot clock that loop
/// watches for the prober, or, where no such clock could be made, one of the loop's own timers
/// (which stand still while the machine sleeps).
enum ProbeTimer {
    case bootClock
    case scheduled(WatchToken)

    /// Stops the timer; its action does not run.
    func cancel(in loop: ProberLoop?) {
        switch self {
        case .scheduled(let token): loop?.waiter?.cancel(token)
        case .bootClock: loop?.disarmClock()
        }
    }

    /// Arms `action` to run on `queue` `delay` from now: on the loop's boot clock when there is
    /// one (when it expires, the loop runs what the prober holds as its current clock action).
    /// - Returns: nil when the loop is gone (its namespace vanished): then no timer at all.
    static func arm(after delay: Duration, in loop: ProberLoop, queue: DispatchQueue,
                    _ action: @escaping @Sendable () -> Void) -> ProbeTimer? {
        guard let waiter = loop.waiter else { return nil }
        if let clock = loop.clock, waiter.whileWatched(clock, { BootClockTimer.arm($0, after: delay) }) == true {
            return .bootClock
        }
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        // Fired on the engine's thread: only the hop to the prober's queue runs there.
        return .scheduled(waiter.schedule(at: .now() + .nanoseconds(Int(nanoseconds))) { queue.async(execute: action) })
    }
}

/// A prober's hold on an engine of its namespace: the engine's loop keeps the prober's timers
/// and the engine's pool resolves its names, so a prober adds no thread of its own however many
/// probe configurations a process has.
///
/// The prober keeps it, and with it the engine, from its first probe to its end. Its monitors
/// hold an engine of the namespace anyway (scheduled or not), so this rarely keeps one open that
/// would otherwise close: only an engine of another interface policy than the monitors left.
struct ProberLoop: Sendable {
    let engine: NetlinkEngine
    /// The prober's boot-clock timer: a descriptor the engine's loop polls and owns (it closes it
    /// after `end`, or when its thread ends); nil where none could be made.
    let clock: WatchToken?

    /// The engine's loop; nil once the namespace vanished (its thread ended and closed the clock).
    var waiter: EventWaiter? { engine.eventLoop }

    /// Takes an engine of `namespace` (one already open, else a new one) and has its loop watch a
    /// new boot clock; when the clock expires, `expired` runs on the engine's thread.
    /// - Returns: nil when no engine can be had (the namespace vanished, descriptors ran out).
    static func make(for namespace: NetworkNamespace, expired: @escaping @Sendable () -> Void) -> ProberLoop? {
        guard let engine = try? EngineRegistry.engine(anyPolicyIn: namespace), let waiter = engine.eventLoop else { return nil }
        guard let descriptor = BootClockTimer.make() else { return ProberLoop(engine: engine, clock: nil) }
        // Runs on the engine's thread, as long as the watch does (so the descriptor is open).
        let token = waiter.watch(descriptor) {
            BootClockTimer.drain(descriptor)
            expired()
        }
        return ProberLoop(engine: engine, clock: token)
    }

    func disarmClock() {
        guard let clock else { return }
        _ = waiter?.whileWatched(clock) { BootClockTimer.disarm($0) }
    }

    /// The prober goes away: the loop stops watching its clock and closes the descriptor.
    func end() {
        guard let clock else { return }
        waiter?.unwatch(clock)
    }
}
