import ReachabilityEngine
import Dispatch
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilitySystem

/// One monitor's side of delivery: the state the engine last gave it, and the one channel that
/// carries each new state to the monitor's faces.
///
/// The engine hands every evaluation to `publish`; the core composes the probe's answer onto it,
/// keeps it as `current`, yields it to the async sequences, and queues it on the channel
/// (`DeliveryChannel`: numbered, deduplicated, gated by schedule), whose deliveries run the faces
/// (`MonitorFaces`) on the user's queue. The engine holds the core, never the monitor: a monitor the
/// user forgot to unschedule still goes away, and its `deinit` unsubscribes the core.
package final class MonitorCore: Sendable {
    package let target: MonitorTarget
    let state: LockedState<State>
    /// Deliveries counted here, not through the engine (nil without a metrics backend).
    private let metrics: EngineMetrics?
    /// Held while the faces run (`runFaces`); `reschedule` takes it after closing the gate, so
    /// when it returns no callback of this monitor runs or can start. Recursive, so a callback may
    /// unschedule, cancel or release its own monitor.
    private let calloutLock = RecursiveLock()

    struct WeakMonitor {
        weak var monitor: (any MonitorOwner)?
    }

    struct State {
        /// The latest state, with the probe's answer: what the faces and streams were given.
        var current: NetworkPath
        /// False while `current` is a host name's placeholder (its first resolution has not
        /// finished): nothing is delivered until the engine's first real evaluation.
        var hasState: Bool
        /// The probe's answer and the engine's last path it is composed onto.
        var connectivity: ConnectivityOverlay
        /// The prober the monitor's probe setting chose; it holds the monitor's core only weakly.
        var prober: (any MonitorProber)?
        var owner = WeakMonitor()
        var channel = DeliveryChannel()
        var faces = MonitorFaces()
        var streams = MonitorStreams()
        var isTornDown = false

        /// Scheduled on a queue or iterated: the engine keeps `current` up to date.
        var isListening: Bool { channel.queue != nil || !streams.isEmpty }

        /// Makes `path` current, yields it to the streams and queues it on the channel.
        ///
        /// - Parameter differsFromCurrent: whether `path` differs from the current path, when the
        ///   caller compared them already.
        mutating func publish(_ path: NetworkPath, again: Bool = false,
                              differsFromCurrent: Bool? = nil) -> (DispatchQueue, DeliveryChannel.Delivery)? {
            let differs = differsFromCurrent ?? (current != path)
            current = path
            streams.yield(path)
            return channel.enqueue(path, again: again, differsFromCurrent: differs)
        }
    }

    package init(target: MonitorTarget, initial: NetworkPath, hasState: Bool = true, metrics: EngineMetrics? = nil) {
        self.target = target
        self.metrics = metrics
        self.state = LockedState(State(current: initial, hasState: hasState, connectivity: ConnectivityOverlay()))
    }

    package func attach(owner: any MonitorOwner) {
        state.withLock { $0.owner.monitor = owner }
    }

    // MARK: - State the user reads

    package var current: NetworkPath { state.withLock { $0.current } }

    /// Keeps what an unscheduled read evaluated. Not once the monitor is active: the engine may
    /// have recorded a newer path since `path` was evaluated, and this one must not overwrite it
    /// (nor be redelivered after it).
    package func storeIfInactive(_ path: NetworkPath) {
        connectivityEvent(state.withLock { state -> ConnectivityOverlay.Event in
            guard !state.isListening else { return .nothing }
            let (composed, event) = state.connectivity.compose(path)
            state.current = composed
            return event
        })
    }

    /// Whether the engine keeps `current` up to date: scheduled on a queue or iterated.
    package var isActive: Bool { state.withLock(\.isListening) }

    // MARK: - Faces

    /// Sets or clears the face at `slot`. A face set on a scheduled monitor is told the current
    /// state first (`redeliverCurrent`); the face it replaces is let go outside the lock, after a
    /// callback of it in flight returns (the delivery holds it too).
    func setFace(_ callout: MonitorFaces.Callout?, at slot: MonitorFaces.Slot) {
        var old: MonitorFaces.Callout?
        if callout == nil {
            old = state.withLock { $0.faces.set(nil, at: slot) }
        } else {
            redeliverCurrent { old = $0.faces.set(callout, at: slot) }
        }
        withExtendedLifetime(old) {}
    }

    /// Replaces the C callback and its context (a context without a callback is dropped).
    package func setCallback(_ callback: MonitorCallback?, context: CallbackContext?) {
        setFace(callback.map { .callback($0, context) }, at: .callback)
    }

    package func setFlagsHandler(_ handler: (@Sendable (ReachabilityFlags) -> Void)?) {
        setFace(handler.map { .flags($0) }, at: .flagsHandler)
    }

    package var pathHandler: (@Sendable (NetworkPath) -> Void)? {
        get {
            guard case .path(let handler) = state.withLock({ $0.faces.callout(at: .pathHandler) }) else { return nil }
            return handler
        }
        set { setFace(newValue.map { .path($0) }, at: .pathHandler) }
    }

    /// The delegate face (which holds the user's delegate weakly); one set on a scheduled monitor
    /// is told the current path, as `pathHandler` is.
    package var delegate: (any MonitorDelegateFace)? {
        get {
            guard case .delegate(let face) = state.withLock({ $0.faces.callout(at: .delegate) }) else { return nil }
            return face
        }
        set { setFace(newValue.map { .delegate($0) }, at: .delegate) }
    }

    // MARK: - Scheduling

    /// Changes the schedule as `decide` says for the current one (nil: unscheduled), in one locked
    /// step, so that two callers cannot both find the monitor idle and schedule it. A new schedule
    /// (or none) returns once no callback of this monitor is running (unless called from inside
    /// one) and none can start for the old schedule.
    package func reschedule(_ decide: (MonitorSchedule?) -> Rescheduling) -> Rescheduling {
        let decision = state.withLock { state -> Rescheduling in
            let decision = decide(state.channel.schedule)
            if case .move(let next) = decision {
                state.channel.reschedule(on: state.isTornDown ? nil : next)
                state.faces.forgetSeen()
            }
            return decision
        }
        // Wait out a callback that already passed the gate; recursive, so a callback may unschedule itself.
        if case .move = decision { calloutLock.whileLocked {} }
        return decision
    }

    /// The monitor is going away: no callback starts from now on, streams finish, the faces and
    /// their context go (after a callback in flight returns, since that delivery holds them too).
    package func tearDown() {
        let (faces, streams) = state.withLock { state -> ([MonitorFaces.Callout], MonitorStreams) in
            state.isTornDown = true
            state.channel.reschedule(on: nil)
            defer { state.streams = MonitorStreams() }
            return (state.faces.removeAll(), state.streams)
        }
        streams.finish()
        withExtendedLifetime(faces) {}
    }

    // MARK: - From the engine

    /// A delivery `publish` made, to run on `queue`.
    package struct PendingDelivery: Sendable {
        package let queue: DispatchQueue
        /// What runs there.
        package var work: DeliveryWork

        init(core: MonitorCore, queue: DispatchQueue, delivery: DeliveryChannel.Delivery,
             then: ConnectivityOverlay.Event = .nothing) {
            self.queue = queue
            work = DeliveryWork(core: core, delivery: delivery, then: then)
        }

        /// Whether it runs on the engine's thread after the turn that made it.
        var runsOnEngineThread: Bool { work.delivery.onEngineThread }

        /// Sends it where it runs: after the current turn when made on a loop's thread for a
        /// monitor scheduled there, else on its queue.
        package func send() {
            if runsOnEngineThread, let outbox = EngineThreadOutbox.current {
                outbox.append(work)
            } else {
                let work = work
                queue.async { work.run() }
            }
        }
    }

    /// A delivery as its queue runs it, without the queue: a batch of ten thousand monitors of
    /// one queue holds the queue once (`EngineThreadOutbox`), not once a monitor.
    package struct DeliveryWork: Sendable {
        let core: MonitorCore
        let delivery: DeliveryChannel.Delivery
        /// What the prober hears once the faces ran: told before, the probe the change starts
        /// (its pass, its socket, its handshake) competed with this delivery for the CPU, and the
        /// flags callback came ~0.3 ms later on a loaded machine (BENCHMARKS.md, "HTTPS probes").
        var then: ConnectivityOverlay.Event

        package func run() {
            core.run(delivery)
            core.connectivityEvent(then)
        }
    }

    /// What `publish` made of an evaluation.
    package struct Update {
        /// The delivery for the faces, when the state differs from the last one queued.
        package var delivery: PendingDelivery?
        /// Whether the evaluation differs from the path the monitor held.
        package var changed: Bool

        /// Sends the delivery on its own; the engine's batches go through the loop thread's outbox.
        package func deliver() {
            delivery?.send()
        }
    }

    /// The one way an evaluation reaches a monitor (from the engine's loop, or the monitor's own
    /// thread when its namespace is unavailable): composes it with the probe's answer, makes it
    /// current, yields it to the streams, and queues it on the channel when it differs from the
    /// last one queued. The caller sends the delivery (`Update.deliver`, or queues it in the loop thread's outbox).
    package func publish(_ enginePath: NetworkPath) -> Update {
        let (changed, due, event) = enqueue(enginePath)
        guard let (queue, delivery) = due else {
            connectivityEvent(event) // outside the lock: it may call the prober
            return Update(changed: changed)
        }
        return Update(delivery: PendingDelivery(core: self, queue: queue, delivery: delivery, then: event), changed: changed)
    }

    /// `publish`'s step under the lock. - Returns: whether the evaluation differs from the path
    /// the monitor held, the delivery due and its queue (nil: none), and what the prober is to hear.
    func enqueue(_ enginePath: NetworkPath)
        -> (changed: Bool, due: (DispatchQueue, DeliveryChannel.Delivery)?, event: ConnectivityOverlay.Event) {
        var changed = false
        var event = ConnectivityOverlay.Event.nothing
        let due = state.withLock { state -> (DispatchQueue, DeliveryChannel.Delivery)? in
            let path: NetworkPath
            (path, event) = state.connectivity.compose(enginePath)
            let differs = state.current != path
            changed = differs || !state.hasState
            state.hasState = true
            return state.publish(path, differsFromCurrent: differs)
        }
        return (changed, due, event)
    }

    /// On the schedule's queue: runs the faces there, or hands the run to the schedule's hop.
    fileprivate func run(_ delivery: DeliveryChannel.Delivery) {
        // Asked in place: binding the hop would count it up and down for every delivery.
        guard case .some = delivery.hop else { return runFaces(delivery) }
        // Weak: a run handed to a place that never performs it must not keep the core.
        delivery.hop.unsafelyUnwrapped.carry { [weak self] isWanted in self?.runFaces(delivery, if: isWanted) }
    }

    /// Runs the faces the state is news to, unless the place no longer wants it (`isWanted`, asked
    /// under the callout lock so that it and the faces are one step for `reschedule`), the
    /// schedule changed or a newer state already ran.
    private func runFaces(_ delivery: DeliveryChannel.Delivery, if isWanted: () -> Bool = { true }) {
        calloutLock.whileLocked {
            guard isWanted() else { return }
            let due = state.withLock { state -> ((any MonitorOwner)?, DueCallouts)? in
                guard state.channel.admit(delivery) else { return nil }
                return (state.owner.monitor, state.faces.due(for: delivery.path))
            }
            guard let (owner, callouts) = due, !callouts.isEmpty else { return }
            metrics?.callbackDelivered()
            // `owner` keeps the monitor alive while its callbacks run: releasing the last
            // reference from inside a callback deallocates it only after they return.
            withExtendedLifetime(owner) {
                callouts.forEach { $0.run(delivery.path, owner: owner) }
            }
        }
    }
}
