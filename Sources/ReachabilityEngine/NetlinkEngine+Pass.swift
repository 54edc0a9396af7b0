import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink

/// The pass an evaluation runs in, and the lone target's evaluation.
extension NetlinkEngine {
    /// Runs `body` in this turn's `EvaluationPass` and keeps what it learnt: the answers go back
    /// to the book, their expiries are noted, and the pass is kept, cleared, for the next.
    ///
    /// - Parameter reusingAnswers: the pass first takes the answers the book still holds (only
    ///   once the book has forgotten what the turn's messages moved).
    /// - Returns: false when the namespace is unavailable (no sockets): `body` did not run.
    func withPass(reusingAnswers: Bool, _ body: (inout EvaluationPass, RouteOracle) -> Void) -> Bool {
        guard let sockets else { return false }
        let nameServers = resolverConfiguration.scope(linkServers: sockets.networkd?.nameServersByLink ?? [:])
        let oracle = RouteOracle(socket: sockets.lookup)
        var pass: EvaluationPass
        // Taken out of the memory while in use, so the pass's tables are its own (no copy on
        // write), and put back cleared at the end.
        let template = model.template
        model.template = nil
        if let template, template.fits(generation: model.generation, nameServers: nameServers) {
            pass = template.pass
        } else {
            // The interfaces' preference is asked once per routing generation.
            pass = EvaluationPass(snapshot: model.snapshot, nameServers: nameServers, knownPreference: model.currentPreference,
                                  epoch: model.nextPassEpoch())
            if pass.needsPreference {
                let asked = pass.preferenceQuestions
                pass.takePreference(oracle.answers(asked))
                report.counters.lookups += asked.count
                model.preference = (model.generation, pass.preference)
            }
        }
        // A turn whose messages were only route messages asks again only what they cover; the
        // rest of the book is still the kernel's answer (`AnswerBook`).
        if reusingAnswers { pass.consult(questions.answers.lend()) }
        body(&pass, oracle)
        noteExpiries(pass.answers)
        if reusingAnswers {
            questions.answers.restore(pass.returnKnown(upTo: questions.answers.capacity))
        } else {
            questions.answers.record(pass.answers)
        }
        pass.clearAnswers()
        model.template = .init(generation: model.generation, nameServers: nameServers, pass: pass)
        return true
    }

    /// What the pass makes of one target, the common turn (one monitor, or the command's): its
    /// missing answers asked, its verdict, and its path unless `unmoved` says the subscriber holds
    /// that verdict's. No batch: no list of targets, resolutions or questions is made.
    func evaluateLone(_ target: MonitorTarget, in pass: inout EvaluationPass, oracle: RouteOracle,
                      includingPending: Bool = false, unmoved: (PathVerdict) -> Bool) -> Evaluated {
        let resolution = names.resolution(for: target)
        let questions = pass.questions(for: target, resolution: resolution)
        ask(questions ?? [], in: &pass, oracle: oracle)
        guard resolution?.state != .pending || includingPending else { return .pending }
        let verdict = pass.verdict(for: target, questions: questions)
        let stamp = pass.stamp(of: verdict, for: target)
        if let stamp, unmoved(stamp) { return .unmoved }
        return .path(pass.path(for: target, verdict: verdict, stamp: stamp, resolution: resolution), stamp: stamp)
    }

    /// Asks the kernel the questions among `questions` the pass has no answer to: one alone
    /// (most often, a turn moved one family's answer) without a list made for it.
    private func ask(_ questions: [RouteQuestion], in pass: inout EvaluationPass, oracle: RouteOracle) {
        var first: RouteQuestion?
        var more: [RouteQuestion] = []
        for question in questions where !pass.isAnswered(question) && question != first && !more.contains(question) {
            if first == nil { first = question } else { more.append(question) }
        }
        guard let first else { return }
        if more.isEmpty {
            pass.take(oracle.answer(first), for: first)
            report.counters.lookups += 1
            return
        }
        more.insert(first, at: 0)
        oracle.answer(more) { position, answer in pass.take(answer, for: more[position]) }
        report.counters.lookups += more.count
    }
}
