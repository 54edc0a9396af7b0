import ReachabilityModel

/// The kernel's route answers an engine keeps from one turn to the next, so that a turn asks
/// again only what its messages can have moved.
///
/// Every answer goes in true: it is what the kernel said when asked. It stays only while no
/// message since can have moved it: `forget(movedBy:)` takes out what a turn's route messages
/// cover (an IPv4 route message leaves every IPv6 answer in place), `forget(family:)` every
/// answer of a family whose addresses moved, and anything else that can move answers (links,
/// rules, an overrun, a router's neighbour state) empties the book (`forgetAll`). Silent changes
/// (a route's expiry) are asked again by their own timer.
package struct AnswerBook {
    private var answers: [RouteQuestion: RouteAnswer] = [:]
    /// What `forget` takes out, kept between turns for its storage.
    private var moved: [RouteQuestion] = []

    /// Beyond this many answers the book starts again empty: questions of monitors that went
    /// away are never taken out one by one.
    package let capacity: Int

    package init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    package var count: Int { answers.count }

    /// Hands the answers to a pass (`EvaluationPass.consult`) without copying them: the book is
    /// empty until `restore` gives them back.
    package mutating func lend() -> [RouteQuestion: RouteAnswer] {
        var lent = [RouteQuestion: RouteAnswer]()
        swap(&lent, &answers)
        return lent
    }

    /// Takes back what `lend` handed out, with the pass's own answers added.
    package mutating func restore(_ returned: [RouteQuestion: RouteAnswer]) {
        answers = returned.count > capacity ? [:] : returned
    }

    /// Adds the answers of a pass that was lent nothing.
    package mutating func record(_ fresh: [RouteQuestion: RouteAnswer]) {
        guard !fresh.isEmpty else { return }
        if answers.count + fresh.count > capacity { answers.removeAll(keepingCapacity: true) }
        for (question, answer) in fresh { answers[question] = answer }
    }

    /// Takes out every answer `changes` can have moved.
    package mutating func forget(movedBy changes: RouteChanges) {
        guard !changes.isEmpty else { return }
        if changes.isBroad { return forgetAll() }
        forget { changes.affects($0) }
    }

    /// Takes out every answer of `family`: its addresses moved.
    package mutating func forget(family: IPAddress.Family) {
        forget { $0.family == family }
    }

    /// Takes out every answer to a question `isGone` names.
    package mutating func forget(where isGone: (RouteQuestion) -> Bool) {
        guard !answers.isEmpty else { return }
        // Collected first: removing while iterating would invalidate the iteration. Into a list
        // kept between turns, so a turn allocates nothing for it.
        moved.removeAll(keepingCapacity: true)
        for question in answers.keys where isGone(question) { moved.append(question) }
        for question in moved { answers[question] = nil }
    }

    package mutating func forgetAll() {
        if !answers.isEmpty { answers.removeAll(keepingCapacity: true) }
    }
}
