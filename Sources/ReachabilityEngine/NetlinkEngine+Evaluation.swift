import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch

/// Evaluation passes and deliveries.
extension NetlinkEngine {
    func publishEvaluationsOfAll() {
        publishEvaluations(of: questions.subscriptions.all)
    }

    /// Re-evaluates the subscribers that watch `name`.
    func publishEvaluations(ofHost name: String) {
        publishEvaluations(of: questions.subscriptions.all.filter { $0.target == .host(name) })
    }

    /// Deliveries go out in batches of this many monitors: the first monitors hear of a change
    /// before the last are evaluated, and a batch costs one work item per callback queue.
    static var deliveryBatch: Int { EvaluationPass.batchSize }

    /// Evaluates `cores`' targets and delivers what changed. - Returns: the cores whose path did not change.
    @discardableResult
    func publishEvaluations(of cores: [any PathSubscriber], reusingAnswers: Bool = false) -> [any PathSubscriber] {
        guard !cores.isEmpty else { return [] }
        report.counters.reevaluations += 1
        if cores.count == 1 { return publishEvaluation(ofLone: cores, reusingAnswers: reusingAnswers) }
        var unchanged: [any PathSubscriber] = []
        var sinceSent = 0
        // Every subscriber (a turn that moved them all): their targets and what each was given
        // are read by position, with no table looked up and no target copied.
        let isAll = questions.subscriptions.isAll(cores)
        evaluate(isAll ? questions.subscriptions.targets : cores.map { $0.target }, reusingAnswers: reusingAnswers,
                 interning: false, unmoved: { position, stamp in
                     isAll ? questions.subscriptions.holds(stamp, at: position) : questions.subscriptions.holds(stamp, for: cores[position])
                 }) { position, made in
            let core = cores[position]
            guard let held = hand(made, to: core, at: isAll ? position : nil) else { return }
            if held { unchanged.append(core) }
            sinceSent += 1
            if sinceSent == Self.deliveryBatch {
                LoopThread.sendQueued()
                sinceSent = 0
            }
        }
        LoopThread.sendQueued()
        return unchanged
    }

    /// `publishEvaluations` of one subscriber, the common turn: no batch.
    /// - Returns: `lone` itself when its path did not change: no array is made for the answer.
    private func publishEvaluation(ofLone lone: [any PathSubscriber], reusingAnswers: Bool) -> [any PathSubscriber] {
        let core = lone[0]
        var made: Evaluated?
        _ = withPass(reusingAnswers: reusingAnswers) { pass, oracle in
            made = evaluateLone(core.target, in: &pass, oracle: oracle) { questions.subscriptions.holds($0, for: core) }
        }
        let held = hand(made ?? .path(.unsatisfied(.namespaceUnavailable), stamp: nil), to: core)
        LoopThread.sendQueued()
        return held == true ? lone : []
    }

    /// Hands `core` what a pass made of its target.
    ///
    /// - Returns: whether the subscriber's path stayed as it was; nil for a name whose first
    ///   resolution has not finished (nothing was handed).
    ///
    /// - Parameter position: where `core` is among the subscribers, when known.
    private func hand(_ made: Evaluated, to core: any PathSubscriber, at position: Int? = nil) -> Bool? {
        switch made {
        case .pending:
            return nil
        case .unmoved:
            report.counters.unmovedVerdicts += 1
            return true
        case .path(let path, let stamp):
            if let position {
                questions.subscriptions.note(path, stamp: stamp, at: position)
            } else {
                questions.subscriptions.note(path, stamp: stamp, for: core)
            }
            guard core.take(path) else { return true }
            report.metrics?.record(path, of: core.target)
            return false
        }
    }

    /// - Returns: nil for a name whose first resolution has not finished, unless `includingPending`.
    func evaluate(_ targets: [MonitorTarget], includingPending: Bool = false) -> [NetworkPath?] {
        var paths: [NetworkPath?] = []
        paths.reserveCapacity(targets.count)
        evaluate(targets, includingPending: includingPending) { _, made in paths.append(made.path) }
        return paths
    }

    /// What a pass made of one target.
    enum Evaluated {
        /// A host name whose first resolution has not finished.
        case pending
        /// The subscriber holds the path of this very verdict (`unmoved`): none was built.
        case unmoved
        /// The path, and the stamp of the verdict it was made from (`EvaluationPass.stamp`).
        case path(NetworkPath, stamp: PathVerdict?)

        var path: NetworkPath? {
            if case .path(let path, _) = self { return path }
            return nil
        }
    }

    /// Evaluates `targets` in order, handing what the pass made of each to `body` as soon as it
    /// is made; all share one `EvaluationPass`.
    ///
    /// - Parameters:
    ///   - reusingAnswers: take the answers the engine's book still holds instead of asking them
    ///     again (only once the book has forgotten what the turn's messages moved).
    ///   - interning: share an equal recent path's storage (`RecentPaths`): for monitors being made,
    ///     scheduled or read one at a time. A turn's pass needs none: monitors of one target are
    ///     evaluated together there and share their path anyway.
    ///   - unmoved: whether the target at a position already has the path of a verdict of this
    ///     stamp: then none is built for it (`Evaluated.unmoved`).
    func evaluate(_ targets: [MonitorTarget], includingPending: Bool = false, reusingAnswers: Bool = false,
                  interning: Bool = true, unmoved: (Int, PathVerdict) -> Bool = { _, _ in false },
                  each body: (Int, Evaluated) -> Void) {
        let ran = withPass(reusingAnswers: reusingAnswers) { pass, oracle in
            evaluate(targets, in: &pass, oracle: oracle, includingPending: includingPending, interning: interning,
                     unmoved: unmoved, each: body)
        }
        if !ran {
            for position in targets.indices { body(position, .path(.unsatisfied(.namespaceUnavailable), stamp: nil)) }
        }
    }

    /// `evaluate`'s work inside its pass.
    private func evaluate(_ targets: [MonitorTarget], in pass: inout EvaluationPass, oracle: RouteOracle,
                          includingPending: Bool, interning: Bool, unmoved: (Int, PathVerdict) -> Bool,
                          each body: (Int, Evaluated) -> Void) {
        // Equal targets (ten thousand monitors of one destination) are evaluated once a pass and
        // share the path; a lone target needs no table for that.
        let distinct = targets.count > 1 ? DistinctTargets(targets) : nil
        let evaluated = distinct?.targets ?? targets
        pass.reserveAnswers(forTargets: evaluated.count)
        // What the pass made of each distinct target, for the monitors that share it (none kept for a lone target).
        var outcomes: [Outcome] = []
        if distinct != nil { outcomes.reserveCapacity(evaluated.count) }
        // The path is built the first time a monitor needs it: never, when each holds its verdict.
        func made(_ outcome: inout Outcome, of target: MonitorTarget, at position: Int) -> Evaluated {
            guard let verdict = outcome.verdict else { return .pending }
            if let stamp = outcome.stamp, unmoved(position, stamp) { return .unmoved }
            if outcome.path == nil {
                let path = pass.path(for: target, verdict: verdict, stamp: outcome.stamp, resolution: outcome.resolution)
                outcome.path = interning && distinct == nil ? questions.recentPaths.interned(path) : path
            }
            return .path(outcome.path!, stamp: outcome.stamp)
        }
        var evaluatedCount = 0
        // Batch by batch: the batch's questions, the ones not yet answered asked together, then the
        // verdicts; each monitor hears its path as soon as its target's batch is done.
        for position in targets.indices {
            let slot = distinct?.slots[position] ?? position
            if slot == evaluatedCount {
                let batch = slot..<min(slot + EvaluationPass.batchSize, evaluated.count)
                evaluatedCount = batch.upperBound
                let resolutions = batch.map { names.resolution(for: evaluated[$0]) }
                let asked = zip(batch, resolutions).map { pass.questions(for: evaluated[$0], resolution: $1) }
                let missing = pass.unanswered(asked)
                if !missing.isEmpty {
                    oracle.answer(missing) { position, answer in pass.take(answer, for: missing[position]) }
                    report.counters.lookups += missing.count
                }
                for (offset, index) in batch.enumerated() {
                    var outcome = Outcome(resolution: resolutions[offset])
                    if outcome.resolution?.state != .pending || includingPending {
                        let verdict = pass.verdict(for: evaluated[index], questions: asked[offset])
                        outcome.verdict = verdict
                        outcome.stamp = pass.stamp(of: verdict, for: evaluated[index])
                    }
                    if distinct == nil { body(index, made(&outcome, of: evaluated[index], at: index)) } else { outcomes.append(outcome) }
                }
            }
            if distinct != nil { body(position, made(&outcomes[slot], of: evaluated[slot], at: position)) }
        }
    }

    /// What a pass made of one distinct target: its verdict (nil: a name still pending), the
    /// verdict's stamp, and its path once a monitor needed it.
    struct Outcome {
        var resolution: HostResolution?
        var verdict: TargetVerdict?
        var stamp: PathVerdict?
        var path: NetworkPath?
    }
}

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
        let oracle = RouteOracle(socket: sockets.lookup, watch: sockets.events.routeWatch)
        var pass: EvaluationPass
        // Taken out of the memory while in use, so the pass's tables are its own (no copy on
        // write), and put back cleared at the end.
        if let template = model.template.take(), template.fits(generation: model.generation, nameServers: nameServers) {
            pass = template.takePass()
        } else {
            // The interfaces' preference is asked once per routing generation.
            pass = EvaluationPass(snapshot: model.snapshot, nameServers: nameServers, knownPreference: model.currentPreference,
                                  epoch: model.nextPassEpoch(), reusing: model.spare.take())
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
        model.template = .init(generation: model.generation, nameServers: nameServers, pass: consume pass)
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
        // Default routes, and a lone destination, share no round trip (`RouteOracle.answer`):
        // asked one by one as they come, with no list of them made. A question asked twice is
        // answered by then.
        var destinations = 0
        for case .destination in questions { destinations += 1 }
        if destinations < 2 {
            for question in questions where !pass.isAnswered(question) {
                pass.take(oracle.answer(question), for: question)
                report.counters.lookups += 1
            }
            return
        }
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
