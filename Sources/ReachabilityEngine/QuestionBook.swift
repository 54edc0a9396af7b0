import Dispatch
import ReachabilityEvaluation
import ReachabilityLoop
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// The engine's route questions between turns: the monitors that ask them, the kernel's answers
/// still true (`AnswerBook`),
/// the recent one-target paths (`RecentPaths`), what was drained and not yet propagated, the
/// second look a deletion asked for, and the pacing of resyncs after overruns.
struct QuestionBook {
    /// Who asks: the monitors delivered to, and the interface each last left by.
    var subscriptions = Subscriptions()
    var answers = AnswerBook()
    /// Paths of one-target passes, shared when equal.
    var recentPaths = RecentPaths()
    /// Drains absorbed and not yet propagated to the monitors (`absorb`, `propagate`).
    var pending: PendingChange?
    /// What a pending second look after a deletion will re-evaluate.
    var secondLook: SecondLook?
    var resync = ResyncPacing()

    /// Adds `look` to the pending second look. - Returns: whether it is the first, whose timer is to be armed.
    mutating func addSecondLook(_ look: SecondLook) -> Bool {
        guard var pending = secondLook else {
            secondLook = look
            return true
        }
        pending.formUnion(look)
        secondLook = pending
        return false
    }
}

/// Resyncs after overruns come at most once per `minimumInterval`, so an event storm cannot pin a core.
struct ResyncPacing {
    static let minimumInterval: DispatchTimeInterval = .milliseconds(100)

    private var last = DispatchTime(uptimeNanoseconds: 0)
    private var scheduled = false

    /// When to resync after an overrun: now, or once the interval since the last one has passed;
    /// nil when a resync is already set.
    mutating func next(now: DispatchTime = .now()) -> DispatchTime? {
        guard !scheduled else { return nil }
        scheduled = true
        return max(now, last + Self.minimumInterval)
    }

    /// A resync starts: the paced one's timer, if any, has run.
    mutating func started(now: DispatchTime = .now()) {
        last = now
        scheduled = false
    }
}

/// What the engine absorbed from its socket and has not yet propagated to the monitors: the
/// drains, merged, and what they did to the links (`NetlinkEngine.absorb`, `propagate`).
struct PendingChange {
    var drained = DrainResult()
    var links = LinkChanges()
    /// A deletion among the drains may not be over in the kernel (`NetlinkEngine.settle` could not
    /// wait for it): the engine looks again shortly after propagating.
    var mayBeUnfinished = false
}

/// What the engine looks at again shortly after a deletion (`NetlinkEngine.scheduleSecondLook`):
/// the reach of the deleting changes, and monitors named one by one.
struct SecondLook {
    /// Route events whose destinations are looked at again.
    var routes = RouteChanges()
    /// Link changes whose monitors are looked at again.
    var links = LinkChanges()
    /// Monitors looked at again by name: after a lone route deletion, those the first look left unchanged.
    var cores: [ObjectIdentifier: any PathSubscriber] = [:]
    /// The deletion may have moved a default route: the `availableInterfaces` order is asked again.
    var movesDefaultRoutes = false

    /// Nothing to look at again.
    var isEmpty: Bool { routes.isEmpty && links.isEmpty && cores.isEmpty }

    mutating func formUnion(_ other: SecondLook) {
        routes.formUnion(other.routes)
        links.formUnion(other.links)
        cores.merge(other.cores) { current, _ in current }
        movesDefaultRoutes = movesDefaultRoutes || other.movesDefaultRoutes
    }
}
