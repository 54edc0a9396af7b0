import ReachabilitySystem
import Synchronization
import NetworkReachability
import Dispatch
import Foundation

/// What the compat layer keeps for one `SCNetworkReachability`: the C callback and its context,
/// and where the target is scheduled (a dispatch queue, or run loops and modes).
///
/// The record installs itself as the target's flags handler (`PathMonitor.setCallback(_:)`), so
/// the target owns it: when the target goes away its handler is dropped, the record with it, and
/// the context is released. Callbacks for a dispatch queue run right in the target's delivery on
/// that queue, so `SCNetworkReachabilitySetDispatchQueue(target, nil)` inherits the target's
/// guarantee that no callback starts once it returns. For run loops, the target delivers on a
/// private queue and each state hops to the run loops with `RunLoop.perform(inModes:block:)`.
///
/// A target used through these functions should not have its flags handler set directly.
final class TargetRecord: Sendable {
    enum Schedule {
        case none
        case queue(DispatchQueue)
        case runLoops([RunLoopTarget])
    }

    private struct WeakTarget {
        weak var target: PathMonitor?
    }

    private struct State {
        var target = WeakTarget()
        var callout: SCNetworkReachabilityCallBack?
        var context: CallbackContext?
        var schedule = Schedule.none
        /// Bumped whenever the target leaves or joins a schedule: run-loop deliveries of an older one are dropped.
        var generation: UInt64 = 0
        /// The flags the callout last got in this schedule. Setting a callout makes the target
        /// deliver its current flags once more (for the new callout); a delivery of the same flags
        /// that raced with it must not reach the callout a second time.
        var lastFlags: SCNetworkReachabilityFlags?
    }

    private let state = LockedState(State())
    /// Where the target delivers while it is scheduled on run loops.
    let runLoopQueue = DispatchQueue(label: "network-reachability.compat.run-loop")

    private init(target: PathMonitor) {
        state.withLock { $0.target.target = target }
    }

    private func belongs(to target: PathMonitor) -> Bool {
        state.withLock { $0.target.target === target }
    }

    // MARK: - The records of all targets

    private struct WeakRecord {
        weak var record: TargetRecord?
    }

    private struct Table {
        var records: [ObjectIdentifier: WeakRecord] = [:]
        var pruneAt = 64
    }

    private static let table = LockedState(Table())

    /// The record of `target`, made (and installed as its flags handler) on first use.
    static func of(_ target: PathMonitor) -> TargetRecord {
        table.withLock { table in
            let id = ObjectIdentifier(target)
            // A record whose target is gone may linger a moment; an identifier can be reused.
            if let record = table.records[id]?.record, record.belongs(to: target) {
                return record
            }
            if table.records.count >= table.pruneAt {
                table.records = table.records.filter { $0.value.record != nil }
                table.pruneAt = max(64, table.records.count * 2)
            }
            let record = TargetRecord(target: target)
            target.setCallback { [record] flags in
                record.receive(flags)
            }
            table.records[id] = WeakRecord(record: record)
            return record
        }
    }

    // MARK: - Callback and schedule

    /// Replaces the callback and its context; the old context is released outside the lock.
    func setCallback(_ callout: SCNetworkReachabilityCallBack?, context: CallbackContext?) {
        let (old, target) = state.withLock { state -> (CallbackContext?, PathMonitor?) in
            let old = state.context
            state.callout = callout
            state.context = context
            state.lastFlags = nil
            return (old, state.target.target)
        }
        target?.describeContext(context)
        withExtendedLifetime(old) {}
        // A callback set on a scheduled target gets the current state first, as one set before
        // scheduling does: installing the handler again makes the target deliver it.
        if callout != nil, let target {
            target.setCallback { [self] flags in
                self.receive(flags)
            }
        }
    }

    /// Moves to `schedule` if `allowed` accepts the current one. - Returns: whether it did.
    func reschedule(_ allowed: (Schedule) -> Schedule?) -> Bool {
        state.withLock { state in
            guard let next = allowed(state.schedule) else { return false }
            state.schedule = next
            state.generation &+= 1
            state.lastFlags = nil
            return true
        }
    }

    /// Changes the run-loop list without starting a new schedule. - Returns: the new list, or nil
    /// if the target is scheduled on a queue or `change` refuses.
    func updateRunLoops(_ change: ([RunLoopTarget]) -> [RunLoopTarget]?) -> [RunLoopTarget]? {
        state.withLock { state -> [RunLoopTarget]? in
            let current: [RunLoopTarget]
            switch state.schedule {
            case .none: current = []
            case .runLoops(let targets): current = targets
            case .queue: return nil
            }
            guard let next = change(current) else { return nil }
            if next.isEmpty {
                state.schedule = .none
                state.generation &+= 1
                state.lastFlags = nil
            } else {
                if current.isEmpty {
                    state.generation &+= 1
                    state.lastFlags = nil
                }
                state.schedule = .runLoops(next)
            }
            return next
        }
    }

    // MARK: - Delivery

    private enum Delivery {
        case now(PathMonitor, SCNetworkReachabilityCallBack, CallbackContext?)
        case runLoops([RunLoopTarget], generation: UInt64)
    }

    /// On the target's delivery queue, with each new flags value.
    private func receive(_ flags: SCNetworkReachabilityFlags) {
        let delivery = state.withLock { state -> Delivery? in
            guard let target = state.target.target, state.callout != nil, state.lastFlags != flags else { return nil }
            switch state.schedule {
            case .none:
                return nil
            case .queue:
                state.lastFlags = flags
                return .now(target, state.callout!, state.context)
            case .runLoops(let targets):
                state.lastFlags = flags
                return .runLoops(targets, generation: state.generation)
            }
        }
        switch delivery {
        case .now(let target, let callout, let context):
            callout(OpaquePointer(Unmanaged.passUnretained(target).toOpaque()), flags, context?.info)
        case .runLoops(let targets, let generation):
            post(flags, to: targets, generation: generation)
        case nil:
            break
        }
    }

    /// Hands `flags` to each run loop; the first to run it calls the callback, as a run-loop
    /// source signalled once is performed once however many run loops hold it.
    private func post(_ flags: SCNetworkReachabilityFlags, to targets: [RunLoopTarget], generation: UInt64) {
        let token = DeliveryToken()
        for (runLoop, modes) in RunLoopTarget.grouped(targets) {
            runLoop.perform(inModes: modes) { [weak self] in
                self?.performOnRunLoop(flags, generation: generation, token: token, runLoop: runLoop)
            }
        }
    }

    /// On a run loop's thread: calls the callback unless the schedule moved on or another run loop did.
    private func performOnRunLoop(_ flags: SCNetworkReachabilityFlags, generation: UInt64, token: DeliveryToken, runLoop: RunLoopHandle) {
        let call = state.withLock { state -> (PathMonitor, SCNetworkReachabilityCallBack, CallbackContext?)? in
            guard state.generation == generation, case .runLoops(let targets) = state.schedule,
                  targets.contains(where: { $0.runLoop == runLoop }),
                  let target = state.target.target, let callout = state.callout,
                  token.claim() else {
                return nil
            }
            return (target, callout, state.context)
        }
        guard let (target, callout, context) = call else { return }
        callout(OpaquePointer(Unmanaged.passUnretained(target).toOpaque()), flags, context?.info)
    }
}

/// One delivery handed to several run loops: claimed by the first that runs it.
final class DeliveryToken: Sendable {
    private let claimed = Atomic<Bool>(false)

    /// - Returns: true for the first caller only.
    func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    }
}
