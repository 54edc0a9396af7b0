import ReachabilityLoop
import Dispatch
import ReachabilitySystem

/// When the prober's passes run: on its engine's loop, paced; and its re-probe timer, one of
/// that loop's boot-clock timers.
extension ConnectivityProber {
    /// Looks again at what the subscribers want, soon, on the loop; calls coalesce. Without a
    /// loop (the namespace vanished) nothing is probed, and `probeNow` callers are answered at once.
    package func reconsider() {
        guard !isPassive else { return }
        let schedule = state.withLock { state -> (due: UInt64?, Void)? in
            guard !state.kickScheduled else { return nil }
            state.kickScheduled = true
            let due = state.lastPass &+ Self.passPace
            return (due > DispatchTime.now().uptimeNanoseconds ? due : nil, ())
        }
        guard let schedule else { return }  // a pass is on its way
        var posted = false
        if let loop {
            if let due = schedule.due {
                posted = loop.schedule(at: DispatchTime(uptimeNanoseconds: due)) { [weak self] in self?.kick() }.value != 0
            } else {
                posted = loop.execute { [weak self] in self?.kick() }
            }
        }
        if !posted { answerWithoutLoop() }
    }

    /// Passes come at most this often: a burst of path changes, or a thousand monitors started one
    /// after another, costs one pass (which looks at every subscriber) a pace, not one a monitor,
    /// on the loop that also answers those monitors' schedules.
    static let passPace: UInt64 = 2_000_000

    /// No loop runs the prober's control: whoever waits for an answer hears at once.
    private func answerWithoutLoop() {
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            state.kickScheduled = false
            state.forced = [:]
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0() }
    }

    /// Arms the re-probe timer `delay` from now on the loop's boot clock, so time suspended
    /// counts and a resumed machine probes at once. Under the state's lock.
    func armTimer(after delay: Duration, in state: inout State) {
        dropTimer(&state)
        guard let loop else { return }
        let generation = state.timerGeneration
        state.timer = loop.schedule(afterBootTime: delay) { [weak self] in
            self?.timerFired(generation: generation)
        }
    }

    /// Cancels the timer; one that fires anyway finds its generation stale. Under the state's lock.
    func dropTimer(_ state: inout State) {
        if let timer = state.timer { loop?.cancel(timer) }
        state.timer = nil
        state.timerDue = false
        state.timerGeneration &+= 1
    }

    /// The re-probe's time has come (on the loop).
    private func timerFired(generation: UInt64) {
        let current = state.withLock { state -> Bool in
            guard state.timerGeneration == generation else { return false }
            state.timerDue = true
            return true
        }
        if current { kick() }
    }
}
