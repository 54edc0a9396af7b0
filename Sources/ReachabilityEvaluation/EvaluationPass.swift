import ReachabilityModel

/// One evaluation pass over many targets: the kernel's answers, the paths that targets with the
/// same answers share, and the order of the available interfaces, all made once for the pass.
///
/// A pure value, no I/O: it says which questions it needs answered, takes the kernel's answers,
/// and makes paths from them. The engine does the asking (`RouteOracle`, in the Netlink layer),
/// and tests hand it a table. Each distinct question is asked once a pass, so ten thousand
/// monitors behind one default route cost one lookup and share one path's storage.
///
/// The engine's order: `preferenceQuestions` when `needsPreference`, answered through
/// `takePreference`; then, batch by batch, `questions(for:resolution:)` of each target,
/// `unanswered` of them all (asked together), `take`, and `path` for each target.
package struct EvaluationPass {
    package private(set) var snapshot: KernelSnapshot
    package let nameServers: NameServerScope
    /// Which pass this is, for `stamp(of:for:)`: every pass made afresh has its own, and a pass
    /// kept from turn to turn (the engine's template) keeps its links, order and name servers.
    package let epoch: UInt64
    /// Each available link's best default-route metric, for the order of `availableInterfaces`;
    /// empty with fewer than two available links (nothing to order).
    package private(set) var preference: [Int: UInt32] = [:]
    /// Whether the preference must be asked: two or more available links, and none known.
    package let needsPreference: Bool
    private let links: [LinkState]
    /// The kernel's answers of the pass (their routes' expiries are kept by the engine).
    package private(set) var answers: [RouteQuestion: RouteAnswer] = [:]
    /// Answers of earlier turns that no message since can have moved (`AnswerBook`): read, never
    /// asked again. Kept apart from `answers`, so that a pass's own answers stay few.
    private var known: [RouteQuestion: RouteAnswer] = [:]
    private var sharedPaths: [PathSharingKey: NetworkPath] = [:]
    /// Whether the pass has more than one target to share paths between (`reserveAnswers`):
    /// a lone target (the common turn) makes no key and no table.
    private var sharesPaths = true
    /// One ordered list for the pass; each path moves its own interface to the front.
    private var available: [NetworkInterface] = []

    /// Targets are evaluated (and their destinations asked together) this many at a time: the
    /// first monitors hear of a change before the last are evaluated.
    package static var batchSize: Int { 128 }

    /// Up to this many questions, `unanswered` deduplicates without a set.
    static var scanLimit: Int { 8 }

    /// - Parameters:
    ///   - knownPreference: the preference of an earlier pass of the same routing state,
    ///   nil when it must be asked (only when two or more links are available).
    ///   - epoch: the pass's own number (`epoch`), never one an earlier pass of the engine had.
    ///   - spare: an earlier pass, whose tables' storage this one takes (a turn that moved the
    ///     links makes a pass afresh, and would otherwise allocate them again).
    package init(snapshot: KernelSnapshot, nameServers: NameServerScope, knownPreference: [Int: UInt32]?, epoch: UInt64 = 0,
                 reusing spare: consuming EvaluationPass? = nil) {
        self.snapshot = snapshot
        self.nameServers = nameServers
        self.epoch = epoch
        var spareLinks: [LinkState] = []
        if let spare = spare.take() {
            answers = spare.answers
            spareLinks = spare.links
        }
        answers.removeAll(keepingCapacity: true)
        // Sized once: grown from empty, a dictionary reallocates at 1, 2, 4 and 8 entries.
        if answers.capacity < 8 { answers.reserveCapacity(8) }
        links = Evaluator.availableLinks(in: snapshot, reusing: consume spareLinks)
        needsPreference = links.count > 1 && knownPreference == nil
        if links.count > 1, let knownPreference { preference = knownPreference }
        available = Evaluator.availableInterfaces(ordering: links, preference: preference)
    }

    /// Forgets the pass's answers and shared paths, keeping its link order, preference and the
    /// tables' storage: a later turn of the same links and routing starts from it and allocates
    /// nothing for them.
    package mutating func clearAnswers() {
        answers.removeAll(keepingCapacity: true)
        known = [:]
        sharedPaths.removeAll(keepingCapacity: true)
    }

    /// Lets go of the snapshot while the engine changes its own in place (which would otherwise
    /// copy the storage this pass shares); `rebase` gives it the new one.
    package mutating func releaseSnapshot() {
        snapshot = KernelSnapshot()
    }

    /// Keeps the pass's links, their order and preference over `snapshot`, a change of the one
    /// it was made from that left every link as it was and as available as it was (an address
    /// that came or went beside others: `LinkChanges.Prior.standsAsItWas`).
    package mutating func rebase(onto snapshot: KernelSnapshot) {
        self.snapshot = snapshot
    }

    /// Reads `book` where the pass has no answer of its own (taken back with `returnKnown`).
    package mutating func consult(_ book: consuming [RouteQuestion: RouteAnswer]) {
        known = book
    }

    /// The answers `consult` lent, with this pass's own answers added: the engine's book again;
    /// empty when together they would hold more than `limit` (the book's capacity, beyond which
    /// it starts again empty), so ten thousand answers are not copied in only to be dropped.
    package mutating func returnKnown(upTo limit: Int = .max) -> [RouteQuestion: RouteAnswer] {
        var book = [RouteQuestion: RouteAnswer]()
        swap(&book, &known)
        guard book.count + answers.count <= limit else { return [:] }
        for (question, answer) in answers { book[question] = answer }
        return book
    }

    /// An answer of this pass, else one `consult` lent.
    private func answer(to question: RouteQuestion) -> RouteAnswer? {
        answers[question] ?? (known.isEmpty ? nil : known[question])
    }

    /// Whether the pass holds an answer to `question` (taken, or consulted from the book).
    package func isAnswered(_ question: RouteQuestion) -> Bool { answer(to: question) != nil }

    /// Whether the order of `availableInterfaces` follows the default routes (two or more
    /// available links): then it holds only as long as the routing it was asked under.
    package var ordersInterfaces: Bool { links.count > 1 }

    /// Each available link's default route in each family, when `needsPreference`.
    package var preferenceQuestions: [RouteQuestion] {
        guard needsPreference else { return [] }
        return links.flatMap { link in
            [IPAddress.Family.ipv4, .ipv6].map { RouteQuestion.defaultRoute($0, outputInterface: link.index) }
        }
    }

    /// Takes the answers to `preferenceQuestions`, in order, and orders the interfaces by them.
    /// The answers stay the pass's, so a filtered general-path monitor reuses them.
    package mutating func takePreference(_ found: [RouteAnswer]) {
        let questions = preferenceQuestions
        take(found, for: questions)
        preference.reserveCapacity(links.count)
        for (question, answer) in zip(questions, found) {
            guard case .defaultRoute(_, let index?) = question, case .route(let route) = answer else { continue }
            preference[index] = min(preference[index] ?? .max, route.metric)
        }
        available = Evaluator.availableInterfaces(ordering: links, preference: preference)
    }

    /// The kernel questions `target` needs answered; nil when it cannot be asked about at all
    /// (`path` then gives its reason).
    package func questions(for target: MonitorTarget, resolution: HostResolution?) -> [RouteQuestion]? {
        Evaluator.questions(for: target, in: snapshot, resolution: resolution)
    }

    /// The distinct questions among `asked` that the pass has no answer to yet, in order: what to
    /// ask the kernel, together, before `path`.
    package func unanswered(_ asked: [[RouteQuestion]?]) -> [RouteQuestion] {
        let count = asked.reduce(0) { $0 + ($1?.count ?? 0) }
        // A lone target (the common monitor) needs no set to dedupe its one question.
        if count == 1, let only = asked.lazy.compactMap({ $0?.first }).first {
            return answer(to: only) == nil ? [only] : []
        }
        var missing: [RouteQuestion] = []
        // A few questions (the general path's two families) are deduplicated by a scan; a set
        // pays only for many. No room is made ahead: most often nothing is missing.
        guard count > Self.scanLimit else {
            for question in asked.lazy.compactMap({ $0 }).joined() where answer(to: question) == nil && !missing.contains(question) {
                missing.append(question)
            }
            return missing
        }
        missing.reserveCapacity(count)
        var seen = Set<RouteQuestion>(minimumCapacity: count)
        for question in asked.lazy.compactMap({ $0 }).joined() where answer(to: question) == nil && seen.insert(question).inserted {
            missing.append(question)
        }
        return missing
    }

    /// Makes room for the answers of `targets` targets at once: ten thousand distinct destinations
    /// would otherwise regrow the table a dozen times in one pass.
    package mutating func reserveAnswers(forTargets targets: Int) {
        if targets > answers.capacity { answers.reserveCapacity(targets) }
        sharesPaths = targets > 1
    }

    /// Takes the kernel's `found` answers to `questions`, in order.
    package mutating func take(_ found: [RouteAnswer], for questions: [RouteQuestion]) {
        for (question, answer) in zip(questions, found) { take(answer, for: question) }
    }

    /// Takes the kernel's answer to `question`.
    package mutating func take(_ answer: RouteAnswer, for question: RouteQuestion) {
        answers[question] = answer
    }

    /// The verdict of `target` from the answers taken (a question never answered counts as no route).
    package func verdict(for target: MonitorTarget, questions: [RouteQuestion]?) -> TargetVerdict {
        // Read in place, not gathered into an array: each answer is looked up as it is folded.
        Evaluator.verdict(for: target, questions: questions, in: snapshot, answered: questions?.isEmpty == false) { _, question in
            answer(to: question) ?? .failure(errno: 101) // ENETUNREACH
        }
    }

    /// `verdict` as compared from one turn to the next: equal stamps, equal paths. nil for a host
    /// name (its path holds its resolution too) and for a verdict that does not fit `PathVerdict`.
    package func stamp(of verdict: TargetVerdict, for target: MonitorTarget) -> PathVerdict? {
        target.isHostName ? nil : PathVerdict(verdict, epoch: epoch)
    }

    /// The path of `target` from its `verdict`.
    package mutating func path(for target: MonitorTarget, verdict: TargetVerdict, stamp: PathVerdict?,
                               resolution: HostResolution?) -> NetworkPath {
        let key = sharesPaths ? PathSharingKey(target: target, stamp: stamp) : nil
        if let key, let shared = sharedPaths[key] { return shared }
        let path = Evaluator.path(for: target, verdict: verdict, in: snapshot, nameServers: nameServers,
                                  resolution: resolution, preference: preference, available: available)
        if let key { sharedPaths[key] = path }
        return path
    }

    /// The path of `target` from the answers taken.
    package mutating func path(for target: MonitorTarget, questions: [RouteQuestion]?, resolution: HostResolution?) -> NetworkPath {
        let verdict = verdict(for: target, questions: questions)
        return path(for: target, verdict: verdict, stamp: stamp(of: verdict, for: target), resolution: resolution)
    }
}
