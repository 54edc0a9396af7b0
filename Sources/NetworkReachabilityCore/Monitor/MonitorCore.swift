import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch

/// The delivery side of a `PathMonitor`: what the engine holds while the monitor is scheduled.
///
/// It keeps the latest evaluation, dedupes (flags for the flags callbacks, the whole path for the
/// path handlers), numbers each state it queues so an older one never runs after a newer one,
/// and gates callbacks by a generation that every schedule, unschedule and teardown bumps.
/// The engine holds the core, never the monitor: a monitor the user forgot to unschedule still
/// goes away, and its `deinit` unsubscribes the core.
final class MonitorCore: Sendable {
    let target: MonitorTarget
    let state: LockedState<State>
    /// Held while the user's callbacks run (`deliver`); `setQueue` takes it after closing the gate,
    /// so when it returns no callback of this monitor runs or can start (guarantee 5). Recursive,
    /// so a callback may unschedule, cancel or release its own monitor.
    private let calloutLock = LockedState((), recursive: true)

    struct WeakMonitor {
        weak var monitor: PathMonitor?
    }

    struct WeakDelegate {
        weak var delegate: (any PathMonitorDelegate)?
    }

    struct Stream {
        var continuation: AsyncStream<NetworkPath>.Continuation
        var lastYielded: NetworkPath?
    }

    struct State {
        /// Scheduled on a queue or iterated: the engine keeps `current` up to date.
        var isListening: Bool { queue != nil || !streams.isEmpty }

        /// A newly set flags face gets the current flags again; the other face keeps its own
        /// record, so it does not get the same flags twice.
        mutating func forgetDeliveredFlags(handler: Bool) {
            lastQueuedFlags = nil
            if handler { lastHandlerFlags = nil } else { lastDeliveredFlags = nil }
        }

        mutating func forgetDeliveredPath() {
            lastQueuedPath = nil
            lastDeliveredPath = nil
        }

        /// Makes `path` current, yields it to the streams, numbers a delivery when it differs from the last queued.
        mutating func enqueue(_ path: NetworkPath) -> (DispatchQueue, Delivery)? {
            current = path
            for (id, stream) in streams where stream.lastYielded != path {
                streams[id]?.lastYielded = path
                stream.continuation.yield(path)
            }
            guard let queue else { return nil }
            let flagsChanged = lastQueuedFlags != path.flags
            let pathChanged = lastQueuedPath != path
            guard flagsChanged || pathChanged else { return nil }
            lastQueuedFlags = path.flags
            lastQueuedPath = path
            sequence &+= 1
            return (queue, Delivery(path: path, sequence: sequence, generation: generation))
        }

        var current: NetworkPath
        /// False while `current` is a host name's placeholder (its first resolution has not
        /// finished): nothing is delivered until the engine's first real evaluation.
        var hasState: Bool
        var enginePath: NetworkPath  // the engine's last path; `current` adds the probe's answer
        var connectivity = ConnectivityOverlay()
        var owner = WeakMonitor()
        var queue: DispatchQueue?
        var generation: UInt64 = 0
        var sequence: UInt64 = 0
        var lastDeliveredSequence: UInt64 = 0
        var lastQueuedFlags: ReachabilityFlags?
        var lastQueuedPath: NetworkPath?
        /// What the callbacks last saw: on a concurrent queue a skipped older state could otherwise
        /// leave two equal states in a row.
        var lastDeliveredFlags: ReachabilityFlags?
        /// The same for the flags handler, which may be set apart from the C callback.
        var lastHandlerFlags: ReachabilityFlags?
        var lastDeliveredPath: NetworkPath?
        /// What the delegate last saw: setting the path handler redelivers the path, not to the delegate.
        var lastDelegatePath: NetworkPath?
        var callback: PathMonitor.Callback?
        var context: CallbackContext?
        var flagsHandler: (@Sendable (ReachabilityFlags) -> Void)?
        var pathHandler: (@Sendable (NetworkPath) -> Void)?
        var delegate = WeakDelegate()
        var streams: [UInt64: Stream] = [:]
        var nextStreamID: UInt64 = 0
        var isTornDown = false
    }

    init(target: MonitorTarget, initial: NetworkPath, hasState: Bool = true) {
        self.target = target
        self.state = LockedState(State(current: initial, hasState: hasState, enginePath: initial))
    }

    func attach(owner: PathMonitor) {
        state.withLock { $0.owner.monitor = owner }
    }

    // MARK: - State the user reads

    var current: NetworkPath { state.withLock { $0.current } }

    /// The index of the interface the current path leaves by, without copying the path out.
    var currentInterfaceIndex: Int? { state.withLock { $0.current.interface?.index } }

    /// Keeps what an unscheduled read evaluated. Not once the monitor is active: the engine may
    /// have recorded a newer path since `path` was evaluated, and this one must not overwrite it
    /// (nor be redelivered after it).
    func storeIfInactive(_ path: NetworkPath) {
        connectivityEvent(state.withLock { state -> ConnectivityOverlay.Event in
            guard !state.isListening else { return .nothing }
            let (composed, event) = state.takeEnginePath(path)
            state.current = composed
            return event
        })
    }

    /// Whether the engine keeps `current` up to date: scheduled on a queue or iterated.
    var isActive: Bool { state.withLock(\.isListening) }

    // MARK: - Callbacks

    /// Replaces the C callback and its context. The old context is released outside the lock.
    func setCallback(_ callback: PathMonitor.Callback?, context: CallbackContext?) {
        let old = state.withLock { state -> CallbackContext? in
            let old = state.context
            state.callback = callback
            state.context = callback == nil ? nil : context
            if callback != nil { state.forgetDeliveredFlags(handler: false) }
            return old
        }
        withExtendedLifetime(old) {}
        if callback != nil { redeliverCurrent() }
    }

    func setFlagsHandler(_ handler: (@Sendable (ReachabilityFlags) -> Void)?) {
        state.withLock { state in
            state.flagsHandler = handler
            if handler != nil { state.forgetDeliveredFlags(handler: true) }
        }
        if handler != nil { redeliverCurrent() }
    }

    var pathHandler: (@Sendable (NetworkPath) -> Void)? {
        get { state.withLock { $0.pathHandler } }
        set {
            state.withLock { state in
                state.pathHandler = newValue
                if newValue != nil { state.forgetDeliveredPath() }
            }
            if newValue != nil { redeliverCurrent() }
        }
    }

    // MARK: - Scheduling

    /// Sets the queue callbacks run on; nil unschedules. Returns once no callback of this monitor
    /// is running (unless called from inside one) and none can start for the old schedule.
    func setQueue(_ queue: DispatchQueue?) {
        state.withLock { state in
            state.generation &+= 1
            state.queue = state.isTornDown ? nil : queue
            state.lastQueuedFlags = nil
            state.lastQueuedPath = nil
            state.lastDeliveredFlags = nil
            state.lastHandlerFlags = nil
            state.lastDeliveredPath = nil
            state.lastDelegatePath = nil
        }
        // Wait out a callback that already passed the gate; recursive, so a callback may unschedule itself.
        calloutLock.whileLocked {}
    }

    /// The monitor is going away: no callback starts from now on, streams finish, the context is released
    /// (after a callback in flight returns, since that delivery holds the context too).
    func tearDown() {
        let (context, streams) = state.withLock { state -> (CallbackContext?, [Stream]) in
            state.isTornDown = true
            state.generation &+= 1
            state.queue = nil
            state.callback = nil
            state.flagsHandler = nil
            state.pathHandler = nil
            let context = state.context
            state.context = nil
            let streams = Array(state.streams.values)
            state.streams = [:]
            return (context, streams)
        }
        streams.forEach { $0.continuation.finish() }
        withExtendedLifetime(context) {}
    }

    // MARK: - Streams (AsyncSequence)

    /// Adds a stream that receives every distinct path from now on. - Returns: its identifier.
    func addStream(_ continuation: AsyncStream<NetworkPath>.Continuation) -> UInt64? {
        state.withLock { state -> UInt64? in
            guard !state.isTornDown else { return nil }
            state.nextStreamID += 1
            state.streams[state.nextStreamID] = Stream(continuation: continuation)
            return state.nextStreamID
        }
    }

    /// Ends every iteration (`cancel()`).
    func finishStreams() {
        let streams = state.withLock { state -> [Stream] in
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        streams.forEach { $0.continuation.finish() }
    }

    func removeStream(_ id: UInt64) {
        state.withLock { _ = $0.streams.removeValue(forKey: id) }
    }

    // MARK: - From the engine

    /// A delivery made by `record`, to run on `queue`.
    struct PendingDelivery: Sendable {
        let core: MonitorCore
        let queue: DispatchQueue
        let delivery: Delivery

        func run() { core.deliver(delivery) }
    }

    /// What `record` made of an evaluation.
    struct Update {
        /// The delivery for the callbacks, when the state differs from the last one queued.
        var delivery: PendingDelivery?
        /// Whether the evaluation differs from the path the monitor held.
        var changed: Bool

        /// Queues the delivery on its own; the engine's batches go through `MonitorCore.dispatch`.
        func send() {
            guard let delivery else { return }
            delivery.queue.async { delivery.run() }
        }
    }

    /// The one way an evaluation reaches a monitor (from the engine's queue, or the monitor's own
    /// thread when its namespace is unavailable): composes it with the probe's answer, stores it as
    /// the current path, yields it to the streams, and makes a numbered delivery for the callbacks
    /// when it differs from the last one queued. The caller sends the delivery (`Update.send`, or
    /// batched by `dispatch`).
    func record(_ enginePath: NetworkPath) -> Update {
        var changed = false
        var event = ConnectivityOverlay.Event.nothing
        let work = state.withLock { state -> (DispatchQueue, Delivery)? in
            let path: NetworkPath
            (path, event) = state.takeEnginePath(enginePath) // the probe's answer, composed under the lock
            changed = state.current != path || !state.hasState
            state.hasState = true
            return state.enqueue(path)
        }
        connectivityEvent(event) // outside the lock: it may call the prober
        guard let (queue, delivery) = work else { return Update(changed: changed) }
        return Update(delivery: PendingDelivery(core: self, queue: queue, delivery: delivery), changed: changed)
    }

    struct Delivery: Sendable {
        var path: NetworkPath
        var sequence: UInt64
        var generation: UInt64
    }

    /// On the user's queue: runs the callbacks, unless the schedule changed or a newer state already ran.
    fileprivate func deliver(_ delivery: Delivery) {
        calloutLock.whileLocked {
            let gate = state.withLock { state -> Callouts? in
                guard delivery.generation == state.generation, delivery.sequence > state.lastDeliveredSequence else {
                    return nil
                }
                state.lastDeliveredSequence = delivery.sequence
                let flagsChanged = state.lastDeliveredFlags != delivery.path.flags
                let handlerFlagsChanged = state.lastHandlerFlags != delivery.path.flags
                let pathChanged = state.lastDeliveredPath != delivery.path
                // The delegate's own record moves only while it is set: one set later gets the
                // current path redelivered (`delegate`'s setter), and then not twice.
                let delegatePathChanged = state.delegate.delegate != nil && state.lastDelegatePath != delivery.path
                if delegatePathChanged { state.lastDelegatePath = delivery.path }
                state.lastDeliveredFlags = delivery.path.flags
                state.lastHandlerFlags = delivery.path.flags
                state.lastDeliveredPath = delivery.path
                return Callouts(flagsChanged: flagsChanged, handlerFlagsChanged: handlerFlagsChanged,
                                pathChanged: pathChanged, delegatePathChanged: delegatePathChanged,
                                owner: state.owner.monitor, callback: state.callback, context: state.context,
                                flagsHandler: state.flagsHandler, pathHandler: state.pathHandler,
                                delegate: state.delegate.delegate)
            }
            guard let callouts = gate else { return }
            callouts.owner?.engine?.metrics?.callbackDelivered()
            // `callouts.owner` keeps the monitor alive while its callbacks run: releasing the last
            // reference from inside a callback deallocates it only after they return.
            if callouts.flagsChanged {
                if let callback = callouts.callback, let owner = callouts.owner {
                    callback(OpaquePointer(Unmanaged.passUnretained(owner).toOpaque()), delivery.path.flags, callouts.context?.info)
                }
            }
            if callouts.handlerFlagsChanged {
                callouts.flagsHandler?(delivery.path.flags)
            }
            if callouts.pathChanged {
                callouts.pathHandler?(delivery.path)
            }
            if callouts.delegatePathChanged, let delegate = callouts.delegate, let owner = callouts.owner {
                delegate.pathMonitor(owner, didUpdate: delivery.path)
            }
        }
    }

    private struct Callouts {
        var flagsChanged: Bool
        var handlerFlagsChanged: Bool
        var pathChanged: Bool
        var delegatePathChanged: Bool
        var owner: PathMonitor?
        var callback: PathMonitor.Callback?
        var context: CallbackContext?
        var flagsHandler: (@Sendable (ReachabilityFlags) -> Void)?
        var pathHandler: (@Sendable (NetworkPath) -> Void)?
        var delegate: (any PathMonitorDelegate)?
    }
}
