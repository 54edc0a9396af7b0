import ReachabilityDelivery
import ReachabilityLoop
import ReachabilityConnectivity
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch

/// Probes one `ConnectivityProbe` in one namespace for every monitor that has it.
///
/// Its control runs on the loop of an engine of its namespace (the engine of the monitor it was
/// made for), the probe itself on a thread of its own, which blocks in `poll` bounded by the
/// probe's timeout and posts its answer back to the loop, as the resolver threads do: a flags
/// callback never waits for a probe, and a monitor tells it of a path change only after its
/// callbacks for that change ran (`PendingDelivery.then`). At most one probe is in flight; a path
/// change of any subscriber cancels it and starts another. Timers: `interval` after `full`; after
/// `limited` or `portal` from 5 s (or the interval, if shorter), doubling up to the interval;
/// none while no subscriber has a satisfied path, so an idle process wakes once per interval.
///
/// The re-probe timer is one of the loop's boot-clock timers (the loop's one `CLOCK_BOOTTIME`
/// timerfd, so a resumed machine probes at once), and the engine's pool resolves the probe's
/// names: a prober adds no loop, no timer descriptor and no pool of its own. With no engine (the
/// namespace vanished, descriptors ran out) a prober keeps no timer and its names fail at once;
/// its monitors' paths then say so, and `probeNow` answers at once.
package final class ConnectivityProber: MonitorProber {
    package let configuration: ProberConfiguration
    package let namespace: NetworkNamespace
    /// The loop that runs the prober's control and timers: its engine's (the prober names no engine).
    package let loop: (any LoopScheduling)?
    /// The pool that resolves the probe's names: its engine's, shared with the engine's host names.
    let resolver: ResolverPool?
    let state = LockedState(State())

    struct Subscriber {
        weak var core: (any ConnectivitySubscriber)?
        var answeredEpoch: UInt64?
    }

    struct Target {
        var id: ObjectIdentifier
        var core: any ConnectivitySubscriber
        var epoch: UInt64
        var key: ConnectivityKey
    }

    struct InFlight {
        var id: UInt64
        var signal: ProbeSignal
        /// The monitors the answer goes to, each with the epoch it is for.
        var targets: [ObjectIdentifier: Target]
        /// The monitors a `probeNow` asked it for: they stay its targets until it answers, listening
        /// or not, so a later pass (another monitor joining, moving or leaving) cannot cut it short.
        var onDemand: [ObjectIdentifier: Subscriber] = [:]
        /// `probeNow` callers waiting for this probe's answer.
        var waiters: [@Sendable () -> Void] = []
    }

    /// Reached only through `state`'s lock.
    struct State: Sendable {
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        var inFlight: InFlight?
        var nextID: UInt64 = 0
        /// The armed re-probe timer of the loop; kept after it fired, until the next probe starts,
        /// so that "a timer" also means "answered since anyone last listened".
        var timer: WatchToken?
        /// Bumped whenever the timer is replaced or dropped: a timer that fires after that finds
        /// itself stale and does nothing.
        var timerGeneration: UInt64 = 0
        var timerDue = false
        /// The delay after the last `limited` or `portal` answer; nil after `full`, or once the
        /// schedule restarted (a path moved or dropped, or nobody listens).
        var backoff: Duration?
        var forced: [ObjectIdentifier: Subscriber] = [:]
        var waiters: [@Sendable () -> Void] = []
        var kickScheduled = false
        /// When the last pass began (`DispatchTime` nanoseconds), for `passPace`.
        var lastPass: UInt64 = 0
        /// The last answer for each path key, while a monitor it answered listens, until a path
        /// moves or drops: a monitor that joins meanwhile with the same path gets it without a probe
        /// of its own. Once none of them listens it goes, so that a monitor starting later says
        /// `unknown` until probed (the answer may have aged unseen).
        var answers: [ConnectivityKey: ConnectivityAnswer] = [:]
    }

    /// What a test replaces (`ProbingSeams.swift`); empty in a release build.
    let seam: ProberSeam

    /// A prober whose control runs on `loop` and whose names `resolver` resolves; with neither (no
    /// engine could be had), it keeps no timer and its names fail at once.
    package init(configuration: ProberConfiguration, namespace: NetworkNamespace, loop: (any LoopScheduling)?,
                 resolver: ResolverPool?, seam: ProberSeam = ProberSeam()) {
        self.configuration = configuration
        self.namespace = namespace
        self.loop = loop
        self.resolver = resolver
        self.seam = seam
    }

    deinit {
        let (timer, waiters) = state.withLock { state in
            defer { state.timer = nil }
            state.inFlight?.signal.cancel()
            return (state.timer, (state.inFlight?.waiters ?? []) + state.waiters)
        }
        timer.map { loop?.cancel($0) }
        waiters.forEach { $0() }
    }

    // MARK: - From the monitors

    package func subscribe(_ core: any ConnectivitySubscriber) {
        state.withLock { $0.subscribers[ObjectIdentifier(core)] = Subscriber(core: core) }
        reconsider()
    }

    package func unsubscribe(_ core: any ConnectivitySubscriber) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: ObjectIdentifier(core)) }
        reconsider()
    }

    /// A subscriber's path became satisfied or moved: its answer is due (the pass asks each
    /// subscriber for its current epoch, `ConnectivitySubscriber.connectivityEpoch`).
    package func pathChanged() {
        reconsider()
    }

    /// A subscriber's path is no longer satisfied: the network changed, so the kept answers go and
    /// the backoff starts again from 5 s (docs/semantics.md, "Connectivity").
    package func pathWentDown() {
        state.withLock { state in
            state.answers = [:]
            state.backoff = nil
        }
        reconsider()
    }

    /// `probeNow` without Swift concurrency: `done` runs once the answer was applied (on the
    /// engine's loop), or at once. Its task would run on the global executor, whose first worker
    /// thread makes libdispatch open its epoll descriptor, and trap when it cannot.
    package func probeNow(for core: any ConnectivitySubscriber, then done: @escaping @Sendable () -> Void) {
        guard !isPassive else { return done() }
        state.withLock { state in
            state.forced[ObjectIdentifier(core)] = Subscriber(core: core)
            state.waiters.append(done)
        }
        reconsider()
    }

    // MARK: - On the loop

    package func kick() {
        // Forced cores and their waiters are taken together, so a `probeNow` arriving during this
        // pass is left for the next one, never answered by this one.
        let (subscribers, forced, carried, newWaiters, timerDue) = state.withLock { state in
            state.kickScheduled = false
            state.lastPass = DispatchTime.now().uptimeNanoseconds
            state.subscribers = state.subscribers.filter { $0.value.core != nil }
            defer {
                state.forced = [:]
                state.waiters = []
            }
            return (state.subscribers, state.forced, state.inFlight?.onDemand ?? [:], state.waiters, state.timerDue)
        }
        // The monitors' locks are taken with the prober's released: a monitor calls in here only
        // outside its own lock, so the two locks are never held in opposite orders.
        var targets: [Target] = []
        var unanswered: [Target] = []
        var answeredKeys: Set<ConnectivityKey> = []
        var moved = false
        for (id, subscriber) in subscribers {
            guard let core = subscriber.core, let (epoch, key) = core.connectivityEpoch(evenIfIdle: false) else { continue }
            let target = Target(id: id, core: core, epoch: epoch, key: key)
            targets.append(target)
            if subscriber.answeredEpoch != epoch { unanswered.append(target) }
            if subscriber.answeredEpoch == epoch { answeredKeys.insert(key) }
            if let answered = subscriber.answeredEpoch, answered != epoch { moved = true }
        }
        let listening = Set(targets.map(\.id))
        let onDemand = carried.merging(forced) { _, new in new }
        for (id, subscriber) in onDemand where !listening.contains(id) {
            guard let core = subscriber.core, let (epoch, key) = core.connectivityEpoch(evenIfIdle: true) else { continue }
            targets.append(Target(id: id, core: core, epoch: epoch, key: key))
        }
        // Monitors that joined with a path whose answer is known take it; a moved path, a timer
        // or `probeNow` sends a probe.
        let reused = state.withLock { state -> [(Target, ConnectivityAnswer)] in
            if moved || timerDue { state.answers = [:] }
            // A moved path is another network: its backoff starts again from 5 s.
            if moved { state.backoff = nil }
            // Answers are shared only among monitors listening together; a monitor that stopped
            // listening is answered afresh when it listens again.
            state.answers = state.answers.filter { answeredKeys.contains($0.key) }
            for id in state.subscribers.keys where !listening.contains(id) { state.subscribers[id]?.answeredEpoch = nil }
            guard forced.isEmpty else { return [] }
            return unanswered.compactMap { target in
                guard let answer = state.answers[target.key] else { return nil }
                state.subscribers[target.id]?.answeredEpoch = target.epoch
                return (target, answer)
            }
        }
        for (target, answer) in reused { target.core.applyConnectivity(answer, epoch: target.epoch) }
        let stale = !forced.isEmpty || timerDue || unanswered.count > reused.count
        var unansweredWaiters: [@Sendable () -> Void] = []
        defer { unansweredWaiters.forEach { $0() } }
        let start = state.withLock { state -> InFlight? in
            guard !targets.isEmpty else {
                state.inFlight?.signal.cancel()
                unansweredWaiters = newWaiters + (state.inFlight?.waiters ?? [])
                state.inFlight = nil
                dropTimer(&state)
                state.backoff = nil // nobody listens: the schedule starts over with the next listener
                return nil
            }
            let byID = Dictionary(targets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var waiters = newWaiters
            if let inFlight = state.inFlight {
                // Unless a path it probes for moved since it started, or a monitor joined with an
                // announced API it does not fetch, the probe in flight answers for everyone:
                // monitors that joined since are added to it, not sent a probe of their own.
                let moved = byID.contains { id, target in inFlight.targets[id].map { $0.epoch != target.epoch } ?? false }
                let apis = Set(inFlight.targets.values.map(\.key.captivePortalAPI))
                if !moved && byID.values.allSatisfy({ apis.contains($0.key.captivePortalAPI) }) {
                    state.inFlight?.targets.merge(byID) { old, _ in old }
                    state.inFlight?.onDemand.merge(forced) { _, new in new }
                    state.inFlight?.waiters += newWaiters
                    return nil
                }
                // The run starts again, with every API; after a moved path, so does the backoff.
                inFlight.signal.cancel()
                waiters += inFlight.waiters
                state.inFlight = nil
                if moved { state.backoff = nil }
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
            dropTimer(&state)
            state.nextID &+= 1
            let flight = InFlight(id: state.nextID, signal: signal, targets: byID,
                                  onDemand: onDemand.filter { byID[$0.key] != nil }, waiters: waiters)
            state.inFlight = flight
            return flight
        }
        guard let start else { return }
        let job = ProbeJob(configuration: configuration, namespace: namespace, resolver: resolver,
                           apis: Set(start.targets.values.map(\.key.captivePortalAPI)))
        let run = probeRun
        let started = ProbeThread.start { [weak self] in
            let answers = run(job, start.signal)
            guard let self else { return }
            // Back on the loop; once the loop has ended, no other control runs: finish here.
            if loop?.execute({ self.finish(start.id, answers: answers) }) != true { self.finish(start.id, answers: answers) }
        }
        if !started { finish(start.id, answers: nil) }
    }

    private func finish(_ id: UInt64, answers: ProbeJob.Answers?) {
        var targets: [(Target, ConnectivityAnswer)] = []
        let waiters = state.withLock { state -> [@Sendable () -> Void]? in
            guard let current = state.inFlight, current.id == id else { return nil }
            state.inFlight = nil
            guard let answers else { return current.waiters }
            // Every target's API is among the run's (one joining with another restarts the run).
            targets = current.targets.values.compactMap { target in answers[target.key.captivePortalAPI].map { (target, $0) } }
            for (target, answer) in targets {
                state.subscribers[target.id]?.answeredEpoch = target.epoch
                state.answers[target.key] = answer
            }
            let delay: Duration
            if answers.values.allSatisfy({ $0.connectivity == .full }) {
                state.backoff = nil
                delay = configuration.interval
            } else {
                let next = state.backoff.map { min($0 * 2, configuration.interval) } ?? min(.seconds(5), configuration.interval)
                state.backoff = next
                delay = next
            }
            armTimer(after: delay, in: &state)
            return current.waiters
        }
        guard let waiters else { return }
        defer { waiters.forEach { $0() } }
        guard let answers else { return }
        answers.values.forEach(log)
        for (target, answer) in targets { target.core.applyConnectivity(answer, epoch: target.epoch) }
        reconsider()
    }
}
