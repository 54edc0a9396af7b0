import Dispatch
import ReachabilityNetlink
import ReachabilityResolution

/// The prober's re-probe timer and its hold on its namespace's engine.
extension ConnectivityProber {
    /// The prober's hold on an engine of its namespace (`ProberLoop`), taken at its first probe;
    /// taken again when that engine's namespace vanished. On the control queue, outside the
    /// state's lock: opening an engine takes a few netlink round trips.
    ///
    /// nil when no engine can be had (the namespace vanished, descriptors ran out): the prober
    /// then keeps no timer, and its names fail at once, which a user would rather see than a
    /// prober that opens loops and pools of its own where the monitors themselves could not.
    /// Answers still come on path changes and from `probeNow`.
    func engineLoop() -> ProberLoop? {
        dispatchPrecondition(condition: .onQueue(control))
        let held = state.withLock { $0.loop }
        if let held, held.waiter != nil { return held }
        let made = ProberLoop.make(for: namespace) { [weak self] in
            // On the engine's thread: only the hop to the control queue.
            guard let self else { return }
            self.control.async { [weak self] in self?.state.withLock { $0.clockAction }?() }
        }
        state.withLock { state in
            // A timer of the vanished loop never fires, and its token means nothing to another loop.
            if held != nil { state.dropTimer() }
            state.loop = made
        }
        return made
    }

    /// The pool that resolves the probe's names: the engine's (`engineLoop()`, so on the control
    /// queue, and it may open an engine). nil without an engine: names then fail at once.
    var resolver: ResolverPool? { engineLoop()?.engine.resolverPool }

    /// Arms the re-probe timer on the engine's loop: a `CLOCK_BOOTTIME` timer that loop polls,
    /// so time suspended counts and a resumed machine probes at once; the loop's own (monotonic)
    /// timers when none can be made. Under the state's lock, after `engineLoop()`.
    func armTimer(after delay: Duration, in state: inout State) {
        state.dropTimer()
        guard let loop = state.loop else { return }
        let generation = state.timerGeneration
        // The action runs on the control queue, as `kick` must.
        let action: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            let current = self.state.withLock { state -> Bool in
                guard state.timerGeneration == generation else { return false }
                state.timerDue = true
                return true
            }
            if current { self.kick() }
        }
        state.timer = ProbeTimer.arm(after: delay, in: loop, queue: control, action)
        if case .bootClock = state.timer { state.clockAction = action }
    }
}
