import Dispatch

/// Probes one `ConnectivityProbe` in one namespace for every monitor that has it.
///
/// Its control runs on a serial queue of its own, the probe itself on a second one (it blocks in
/// `poll`, bounded by the probe's timeout): never on the engine's queue, so a flags callback
/// never waits for a probe. At most one probe is in flight; a path change of any subscriber
/// cancels it and starts another. Timers: `interval` after `full`; after `limited` or `portal`
/// from 5 s (or the interval, if shorter), doubling up to the interval; none while no subscriber
/// has a satisfied path, so an idle process wakes once per interval.
final class ConnectivityProber: Sendable {
    let probe: ConnectivityProbe
    let namespace: NetworkNamespace
    private let control = DispatchQueue(label: "network-reachability.connectivity")
    private let worker = DispatchQueue(label: "network-reachability.connectivity.probe")
    private let resolver: ResolverPool
    private let state = LockedState(State())

    private struct Subscriber {
        weak var core: MonitorCore?
        var answeredEpoch: UInt64?
    }

    private struct Target {
        var id: ObjectIdentifier
        var core: MonitorCore
        var epoch: UInt64
        var key: ConnectivityOverlay.Key
    }

    private struct InFlight {
        var id: UInt64
        var signal: ProbeSignal
        /// The monitors the answer goes to, each with the epoch it is for.
        var targets: [ObjectIdentifier: Target]
        /// `probeNow` callers waiting for this probe's answer.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// `@unchecked Sendable`: reached only through `state`'s lock; the one non-Sendable member, the
    /// `DispatchSourceTimer`, is only armed and cancelled, which dispatch allows from any thread.
    private struct State: @unchecked Sendable {
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        var inFlight: InFlight?
        var nextID: UInt64 = 0
        var timer: DispatchSourceTimer?
        var timerDue = false
        var backoff: Duration?
        var forced: [ObjectIdentifier: Subscriber] = [:]
        var waiters: [CheckedContinuation<Void, Never>] = []
        var kickScheduled = false
        /// The last answer for each path key, until a path moves or drops: a monitor that joins
        /// later with the same path gets it without a probe of its own.
        var answers: [ConnectivityOverlay.Key: ConnectivityAnswer] = [:]
        /// Probes started, for tests and benchmarks.
        var started = 0
    }

    /// Sends nothing: answers come by hand (`MonitorCore.applyConnectivity`), for unit tests.
    private let isPassive: Bool

    init(probe: ConnectivityProbe, namespace: NetworkNamespace, passive: Bool = false) {
        self.probe = probe
        self.namespace = namespace
        self.isPassive = passive
        self.resolver = ResolverPool(namespace: namespace)
    }

    deinit {
        state.withLock { state in
            state.timer?.cancel()
            state.inFlight?.signal.cancel()
            state.inFlight?.waiters.forEach { $0.resume() }
            state.waiters.forEach { $0.resume() }
        }
        resolver.stop()
    }

    /// How many probes this prober started.
    var probesStarted: Int { state.withLock { $0.started } }

    // MARK: - From the monitors

    func subscribe(_ core: MonitorCore) {
        state.withLock { $0.subscribers[ObjectIdentifier(core)] = Subscriber(core: core) }
        reconsider()
    }

    func unsubscribe(_ core: MonitorCore) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: ObjectIdentifier(core)) }
        reconsider()
    }

    /// `core`'s path became satisfied or moved: its answer is due.
    func pathChanged(_ core: MonitorCore, epoch: UInt64) {
        reconsider()
    }

    /// A subscriber's path is no longer satisfied: the network changed, so the kept answers go.
    func pathWentDown() {
        state.withLock { $0.answers = [:] }
        reconsider()
    }

    /// Looks again at what the subscribers want, soon, on the control queue; calls coalesce.
    func reconsider() {
        guard !isPassive else { return }
        let schedule = state.withLock { state -> Bool in
            defer { state.kickScheduled = true }
            return !state.kickScheduled
        }
        if schedule { control.async { [weak self] in self?.kick() } }
    }

    /// Probes now for `core` (scheduled or not) and returns once the answer was applied, or at
    /// once when its path is not satisfied.
    func probeNow(for core: MonitorCore) async {
        guard !isPassive else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            state.withLock { state in
                state.forced[ObjectIdentifier(core)] = Subscriber(core: core)
                state.waiters.append(continuation)
            }
            reconsider()
        }
    }

    // MARK: - On the control queue

    private func kick() {
        dispatchPrecondition(condition: .onQueue(control))
        // Forced cores and their waiters are taken together, so a `probeNow` arriving during this
        // pass is left for the next one, never answered by this one.
        let (subscribers, forced, newWaiters, timerDue) = state.withLock { state in
            state.kickScheduled = false
            state.subscribers = state.subscribers.filter { $0.value.core != nil }
            defer {
                state.forced = [:]
                state.waiters = []
            }
            return (state.subscribers, state.forced, state.waiters, state.timerDue)
        }
        // The monitors' locks are taken with the prober's released: a monitor calls in here only
        // outside its own lock, so the two locks are never held in opposite orders.
        var targets: [Target] = []
        var unanswered: [Target] = []
        var moved = false
        for (id, subscriber) in subscribers {
            guard let core = subscriber.core, let (epoch, key) = core.connectivityEpoch() else { continue }
            let target = Target(id: id, core: core, epoch: epoch, key: key)
            targets.append(target)
            if subscriber.answeredEpoch != epoch { unanswered.append(target) }
            if let answered = subscriber.answeredEpoch, answered != epoch { moved = true }
        }
        for (id, subscriber) in forced where !targets.contains(where: { $0.id == id }) {
            guard let core = subscriber.core, let (epoch, key) = core.connectivityEpoch(evenIfIdle: true) else { continue }
            targets.append(Target(id: id, core: core, epoch: epoch, key: key))
        }
        // Monitors that joined with a path whose answer is known take it; a moved path, a timer
        // or `probeNow` sends a probe.
        let reused = state.withLock { state -> [(Target, ConnectivityAnswer)] in
            if moved || timerDue { state.answers = [:] }
            guard forced.isEmpty else { return [] }
            return unanswered.compactMap { target in
                guard let answer = state.answers[target.key] else { return nil }
                state.subscribers[target.id]?.answeredEpoch = target.epoch
                return (target, answer)
            }
        }
        for (target, answer) in reused { target.core.applyConnectivity(answer, epoch: target.epoch) }
        let stale = !forced.isEmpty || timerDue || unanswered.count > reused.count
        var unansweredWaiters: [CheckedContinuation<Void, Never>] = []
        defer { unansweredWaiters.forEach { $0.resume() } }
        let start = state.withLock { state -> InFlight? in
            guard !targets.isEmpty else {
                state.inFlight?.signal.cancel()
                unansweredWaiters = newWaiters + (state.inFlight?.waiters ?? [])
                state.inFlight = nil
                state.timer?.cancel()
                state.timer = nil
                state.timerDue = false
                return nil
            }
            let byID = Dictionary(targets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var waiters = newWaiters
            if let inFlight = state.inFlight {
                // Unless a path it probes for moved since it started, the probe in flight answers
                // for everyone: monitors that joined since are added to it, not sent a probe of their own.
                let moved = byID.contains { id, target in inFlight.targets[id].map { $0.epoch != target.epoch } ?? false }
                if !moved {
                    state.inFlight?.targets.merge(byID) { old, _ in old }
                    state.inFlight?.waiters += newWaiters
                    return nil
                }
                inFlight.signal.cancel()
                waiters += inFlight.waiters
                state.inFlight = nil
            } else if !stale && state.timer != nil {
                // No timer means nobody listened since the last answer (every monitor stopped,
                // then one started again with the same path): that answer may be old, so probe.
                unansweredWaiters = newWaiters
                return nil
            }
            guard let signal = ProbeSignal() else {
                unansweredWaiters = waiters
                return nil
            }
            state.timer?.cancel()
            state.timer = nil
            state.timerDue = false
            state.nextID &+= 1
            state.started += 1
            let flight = InFlight(id: state.nextID, signal: signal, targets: byID, waiters: waiters)
            state.inFlight = flight
            return flight
        }
        guard let start else { return }
        let runner = ProbeRunner(probe: probe, namespace: namespace, resolver: resolver, signal: start.signal)
        worker.async { [weak self] in
            let answer = runner.run()
            guard let self else { return }
            self.control.async { self.finish(start.id, answer: answer) }
        }
    }

    private func finish(_ id: UInt64, answer: ConnectivityAnswer?) {
        dispatchPrecondition(condition: .onQueue(control))
        var targets: [Target] = []
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
            guard let current = state.inFlight, current.id == id else { return nil }
            state.inFlight = nil
            guard let answer else { return current.waiters }
            targets = Array(current.targets.values)
            for target in targets {
                state.subscribers[target.id]?.answeredEpoch = target.epoch
                state.answers[target.key] = answer
            }
            let delay: Duration
            if answer.connectivity == .full {
                state.backoff = nil
                delay = probe.interval
            } else {
                let next = state.backoff.map { min($0 * 2, probe.interval) } ?? min(.seconds(5), probe.interval)
                state.backoff = next
                delay = next
            }
            state.timer = makeTimer(after: delay)
            return current.waiters
        }
        guard let waiters else { return }
        defer { waiters.forEach { $0.resume() } }
        guard let answer else { return }
        for target in targets { target.core.applyConnectivity(answer, epoch: target.epoch) }
        reconsider()
    }

    private func makeTimer(after delay: Duration) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: control)
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        timer.schedule(deadline: .now() + .nanoseconds(Int(nanoseconds)), leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.timerDue = true }
            self.kick()
        }
        timer.resume()
        return timer
    }
}
