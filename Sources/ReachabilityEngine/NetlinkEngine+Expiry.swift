import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilitySystem
import Dispatch

/// The engine's part in answers that stop being true without a kernel message: the book, and
/// what it last asked of the loop's timer and the event socket's groups.
struct ExpiryState {
    var book = ExpiryBook()
    /// The due moment the timer was last asked for; nil while none is armed.
    private(set) var timerDue: UInt64?
    /// `book.routerNeighbours` and whether a refresh is watched, as last given to the event socket.
    private(set) var watchedRouters: Set<RouterNeighbour> = []
    private(set) var watchingRefresh = false
    /// The `ExpiryBook.routersVersion` that `watchedRouters` was made from.
    private var routersVersion: UInt64 = 0

    /// What the book needs of the loop and the event socket that it was not given yet: the timer
    /// moved to its next due moment (each move pokes the loop, so only when it moved), the
    /// neighbour group joined or left with the routers it watches.
    mutating func watchEffects(into effects: inout TurnEffects) {
        let due = book.nextDue
        if due != timerDue {
            effects.add(due.map { .arm(.expiry, at: $0) } ?? .disarm(.expiry))
            timerDue = due
        }
        let refreshing = !book.refreshes.isEmpty
        guard book.routersVersion != routersVersion || refreshing != watchingRefresh else { return }
        watchedRouters = book.routerNeighbours
        routersVersion = book.routersVersion
        watchingRefresh = refreshing
        effects.add(.watchRouters(watchedRouters))
    }

    /// The timer fired.
    mutating func timerFired() {
        timerDue = nil
    }
}

/// Truth where the kernel sends no message (semantics.md): a route whose expiry passes (the
/// lookup skips it at once, its deletion comes with the collection, up to 30 s later), an
/// expired route refreshed in place by a new Router Advertisement, and an IPv6 router chosen
/// by its neighbour state. One timer of the engine's loop, set to the earliest moment the
/// `ExpiryBook` has due; the neighbour and ND user-option groups are joined only while an
/// answer can move with them. Nothing runs while no answer held expires or has a router.
extension NetlinkEngine {
    /// Takes the expiries and routers of a pass's answers, then sets the timer and the groups.
    func noteExpiries(_ answers: [RouteQuestion: RouteAnswer]) {
        if questions.subscriptions.isEmpty {
            // Nobody listens: nothing to keep true.
            guard !expiry.book.isEmpty || expiry.timerDue != nil else { return }
            expiry.book = ExpiryBook()
        } else {
            let now = DispatchTime.now().uptimeNanoseconds
            // IPv4 routes never expire and IPv4 has no router selection by neighbour state.
            for (question, answer) in answers where question.family == .ipv6 {
                expiry.book.note(question, answer, now: now)
            }
        }
        updateExpiryWatch()
    }

    /// Asks the turn's end to set the timer and the event socket's groups to what the book needs.
    func updateExpiryWatch() {
        expiry.watchEffects(into: &effects)
    }

    /// The timer's moment has come: asks again what expired or is watched for a refresh.
    func expiryDue() {
        expiry.timerFired()
        guard sockets != nil else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let (expired, refreshing) = expiry.book.takeDue(now: now)
        // The fresh answers replace the deadlines, and start a refresh watch where the route is gone.
        askAgain(Set(expired).union(refreshing))
        expiry.book.settle(expired, now: now)
        updateExpiryWatch()
    }

    /// A watched router's neighbour state moved, or an RA's user options arrived: asks again the
    /// answers that router can move, and those watched for a refresh.
    func silentStateHinted(routers: Set<RouterNeighbour>) {
        var questions = Set(expiry.book.refreshing)
        for (question, known) in expiry.book.routers where !known.isDisjoint(with: routers) {
            questions.insert(question)
        }
        askAgain(questions)
        updateExpiryWatch()
    }

    /// Re-evaluates the monitors whose targets ask any of `questions`, and forgets what no
    /// monitor asks any more.
    private func askAgain(_ questions: Set<RouteQuestion>) {
        guard !questions.isEmpty else { return }
        var held = Set<RouteQuestion>()
        var cores: [any PathSubscriber] = []
        for core in self.questions.subscriptions.all {
            guard let asked = Evaluator.questions(for: core.target, in: model.snapshot, resolution: names.resolution(for: core.target)) else { continue }
            held.formUnion(asked)
            if asked.contains(where: questions.contains) { cores.append(core) }
        }
        // The interfaces' order follows the default routes: asked again with them.
        if questions.contains(where: { if case .defaultRoute = $0 { true } else { false } }) {
            model.routingMoved()
            held.formUnion(questions.filter { if case .defaultRoute(_, let interface) = $0 { interface != nil } else { false } })
        }
        expiry.book.keepOnly(held)
        guard !cores.isEmpty else { return }
        report.counters.silentStateLooks += 1
        publishEvaluations(of: cores)
    }
}
