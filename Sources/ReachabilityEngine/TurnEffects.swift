import Dispatch
import ReachabilityModel
import ReachabilityNetlink
import ReachabilitySystem

/// A timer the engine keeps on its loop, named by what it is for: at most one of each is armed.
package enum EngineTimer: Hashable, Sendable {
    /// The second look after a deletion the kernel may still have been finishing.
    case secondLook
    /// The paced resync after an overrun.
    case resync
    /// The expiry book's earliest due moment.
    case expiry
    /// A captive-portal announcement the pacing holds back.
    case announcementRelease
    /// A host name's first resolution taking too long.
    case firstResolutionTimeout(String)
    /// A host name's periodic re-resolution.
    case reresolve(String)

    /// Whether a second request keeps the sooner deadline: a first-resolution timeout is the
    /// earliest monitor's, a held announcement is shown at its earliest due moment. The others
    /// move to the newest request's deadline (an expiry refreshed, a re-resolution interval
    /// changed).
    var keepsEarliest: Bool {
        switch self {
        case .firstResolutionTimeout, .announcementRelease: true
        default: false
        }
    }
}

/// What a turn decided must happen outside the engine's state: a timer armed, moved or
/// cancelled, the neighbour groups joined or left. The turn's steps and the parts add to it; the
/// runner applies it once the turn's work is done (`NetlinkEngine.endTurn`), so no pass
/// reconfigures the loop or a socket halfway, and a resync asked for during a pass runs in a
/// turn of its own.
struct TurnEffects {
    enum Effect {
        /// Arm `timer` for `deadline` (`DispatchTime`'s nanoseconds).
        case arm(EngineTimer, at: UInt64)
        case disarm(EngineTimer)
        /// Watch these routers' neighbour entries: the neighbour group is joined while there are
        /// any, and left when there are none.
        case watchRouters(Set<RouterNeighbour>)
    }

    /// Asked this turn, in order; emptied (keeping its storage) as it is applied.
    private var pending: [Effect] = []
    /// The timers armed on the loop: their tokens and deadlines.
    private var armed: [EngineTimer: (token: WatchToken, deadline: UInt64)] = [:]

    mutating func add(_ effect: Effect) {
        pending.append(effect)
    }

    /// Arms `timer` for `deadline`.
    mutating func arm(_ timer: EngineTimer, at deadline: DispatchTime) {
        pending.append(.arm(timer, at: deadline.uptimeNanoseconds))
    }

    /// `timer` fired: it is no longer armed.
    mutating func fired(_ timer: EngineTimer) {
        armed[timer] = nil
    }

    /// Whether `timer` is armed on the loop.
    func isArmed(_ timer: EngineTimer) -> Bool {
        armed[timer] != nil
    }

    /// Applies what the turn asked, in order. With no event socket (the namespace vanished)
    /// groups are left alone.
    mutating func apply(on loop: EventLoop<NetlinkEngine>, events: KernelEventSocket?) {
        guard !pending.isEmpty else { return }
        for effect in pending {
            switch effect {
            case .arm(let timer, let deadline):
                if let current = armed[timer] {
                    if current.deadline == deadline || (timer.keepsEarliest && current.deadline < deadline) { continue }
                    loop.cancel(current.token)
                }
                armed[timer] = (loop.schedule(at: DispatchTime(uptimeNanoseconds: deadline), .timer(timer)), deadline)
            case .disarm(let timer):
                if let current = armed.removeValue(forKey: timer) { loop.cancel(current.token) }
            case .watchRouters(let routers):
                events?.watch(routers: routers)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }
}
