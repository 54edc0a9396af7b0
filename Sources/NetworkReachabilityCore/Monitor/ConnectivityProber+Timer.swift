import Dispatch
import ReachabilityNetlink

/// The prober's re-probe timer.
extension ConnectivityProber {
    /// Arms the re-probe timer on the prober's own poll loop: a `CLOCK_BOOTTIME` timer that loop
    /// polls, so time suspended counts and a resumed machine probes at once; the loop's own
    /// (monotonic) timers when none can be made. Under the state's lock.
    func armTimer(after delay: Duration, in state: inout State) {
        state.dropTimer()
        if state.waiter == nil {
            (state.waiter, state.clock) = ProbeTimer.makeLoop(queue: control) { [weak self] in
                self?.state.withLock { $0.clockAction }
            }
        }
        guard let waiter = state.waiter else { return }
        let generation = state.timerGeneration
        // The action runs on the control queue (the loop's `queue.sync`), as `kick` must.
        let action: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            let current = self.state.withLock { state -> Bool in
                guard state.timerGeneration == generation else { return false }
                state.timerDue = true
                return true
            }
            if current { self.kick() }
        }
        state.timer = ProbeTimer.arm(after: delay, clock: state.clock, waiter: waiter, action)
        if case .bootClock = state.timer { state.clockAction = action }
    }
}
