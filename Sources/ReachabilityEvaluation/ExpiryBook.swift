import ReachabilityModel
/// What the engine must look at again where the kernel sends no message: the answers whose
/// route expires, the questions whose route expired but may be refreshed in place, and the IPv6
/// routers whose neighbour state can move an answer. A value with no clock of its own: times are
/// `DispatchTime` nanoseconds the engine passes in, so tests can drive it.
///
/// The kernel's lookup skips an expired route at once, but deletes it only when its garbage
/// collection runs (`net.ipv6.route.gc_interval`, 30 s), and a Router Advertisement that comes
/// before then refreshes it in place, silently. So an expiry is a deadline to ask again, and an
/// answer that lost its route to an expiry is asked again on a schedule until the route is
/// refreshed or surely collected.
package struct ExpiryBook {
    /// When each question's answer stops being true, with `margin` added.
    package private(set) var deadlines: [RouteQuestion: UInt64] = [:]
    /// Questions whose route expired: when to ask next, and since when they wait.
    package private(set) var refreshes: [RouteQuestion: (since: UInt64, next: UInt64)] = [:]
    /// The routers of each IPv6 answer held with a gateway, and those it had before: the kernel
    /// moves such an answer between routers by their neighbour state, with no route message.
    package private(set) var routers: [RouteQuestion: Set<RouterNeighbour>] = [:] {
        didSet { routersVersion &+= 1 }
    }
    /// Moves whenever `routers` is written, so the engine rebuilds `routerNeighbours` only then.
    package private(set) var routersVersion: UInt64 = 0

    /// Asked this long after the reported expiry: `rta_expires` is truncated to clock ticks
    /// (10 ms) and the kernel compares with jiffies (4 ms at HZ=250), so a question asked at the
    /// reported moment can still meet the route.
    package static let margin: UInt64 = 30_000_000
    /// Deadlines this close are one: `rta_expires` read at two moments differs by its truncation.
    package static let jitter: UInt64 = 50_000_000
    /// How long after an expiry the route can still be refreshed: the collection runs every
    /// `gc_interval` (30 s by default) while routes expire, so by then it has surely run.
    package static let refreshWindow: UInt64 = 60_000_000_000
    /// The most routers remembered per question (the current ones and those it moved from).
    package static let routerLimit = 8

    package init() {}

    package var isEmpty: Bool { deadlines.isEmpty && refreshes.isEmpty && routers.isEmpty }

    /// The earliest moment something is due, if anything is.
    package var nextDue: UInt64? {
        // Asked every turn, nearly always of empty tables: a loop, not a key path a turn.
        var due: UInt64?
        for deadline in deadlines.values where deadline < due ?? .max { due = deadline }
        for refresh in refreshes.values where refresh.next < due ?? .max { due = refresh.next }
        return due
    }

    /// Every router whose neighbour state can move an answer held.
    package var routerNeighbours: Set<RouterNeighbour> {
        routers.values.reduce(into: Set()) { $0.formUnion($1) }
    }

    /// Takes a fresh answer to `question`, made at `now`.
    ///
    /// An expiry sets the deadline (a refresh before it moves it: every answer brings its own)
    /// and ends a refresh watch: the route is back. An answer without expiry clears the deadline;
    /// when that deadline had passed, the route expired (whichever pass asked first: the timer's
    /// or one for a kernel event) and a refresh watch starts. A watch stands until its route is
    /// back, since an expired route that is refreshed can still take the answer back.
    package mutating func note(_ question: RouteQuestion, _ answer: RouteAnswer, now: UInt64) {
        if case .route(let entry) = answer, let expiry = entry.expiresIn {
            let deadline = now &+ Self.nanoseconds(expiry) &+ Self.margin
            // The same expiry read again (a tick's truncation apart) keeps its deadline, and with it the timer.
            let known = deadlines[question] ?? 0
            if max(known, deadline) - min(known, deadline) >= Self.jitter { deadlines[question] = deadline }
            refreshes[question] = nil
        } else if let known = deadlines[question] {
            deadlines[question] = nil
            if now &+ Self.margin >= known { startRefreshWatch(question, now: now) }
        }
        guard question.family == .ipv6 else { return }
        switch answer {
        case .route(let entry):
            guard let interface = entry.outputInterface, !entry.gateways.isEmpty else {
                if routers[question] != nil { routers[question] = nil }
                return
            }
            let current = entry.gateways.map { RouterNeighbour(interfaceIndex: interface, address: $0) }
            let known = routers[question] ?? []
            // The same routers as before (every pass of a settled network): written not at all.
            guard !current.allSatisfy(known.contains) else { return }
            routers[question] = known.count + current.count > Self.routerLimit ? Set(current) : known.union(current)
        case .failure:
            // No route now: the routers it had are the ones whose recovery brings it back.
            break
        }
    }

    /// The questions whose deadline or refresh time has come by `now`. Deadlines stay until the
    /// answer asked again replaces them (`note`) or `settle` drops them; refresh times move on
    /// along the schedule, and a watch past `refreshWindow` ends.
    package mutating func takeDue(now: UInt64) -> (expired: [RouteQuestion], refreshing: [RouteQuestion]) {
        let expired = deadlines.filter { $0.value <= now }.map(\.key)
        var refreshing: [RouteQuestion] = []
        for (question, watch) in refreshes where watch.next <= now {
            refreshing.append(question)
            let waited = now - watch.since
            if waited >= Self.refreshWindow {
                refreshes[question] = nil
            } else {
                refreshes[question]?.next = now + Self.refreshInterval(after: waited)
            }
        }
        return (expired, refreshing)
    }

    /// The route of `question` expired and its answer carries no expiry: the route may be
    /// refreshed in place until it is collected, so it is asked again on a schedule.
    package mutating func startRefreshWatch(_ question: RouteQuestion, now: UInt64) {
        guard deadlines[question] == nil, refreshes[question] == nil else { return }
        refreshes[question] = (since: now, next: now + Self.refreshInterval(after: 0))
    }

    /// Drops the deadlines of `expired` that no fresh answer replaced (no monitor asks them any
    /// more), so a passed deadline never wakes the timer again.
    package mutating func settle(_ expired: [RouteQuestion], now: UInt64) {
        for question in expired where deadlines[question].map({ $0 <= now }) ?? false {
            deadlines[question] = nil
        }
    }

    /// Every question being watched for a refresh: asked at once when a message hints at one.
    package var refreshing: [RouteQuestion] { Array(refreshes.keys) }

    /// Drops what is known of questions no monitor asks any more.
    package mutating func keepOnly(_ held: Set<RouteQuestion>) {
        deadlines = deadlines.filter { held.contains($0.key) }
        refreshes = refreshes.filter { held.contains($0.key) }
        if routers.keys.contains(where: { !held.contains($0) }) { routers = routers.filter { held.contains($0.key) } }
    }

    /// Every second for 10 s (a router that comes back is told within a second or two), every
    /// 2 s to 30 s, then every 5 s: about 26 lookups in the minute after an expiry, then none.
    package static func refreshInterval(after waited: UInt64) -> UInt64 {
        let second: UInt64 = 1_000_000_000
        if waited < 10 * second { return second }
        if waited < 30 * second { return 2 * second }
        return 5 * second
    }

    package static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
