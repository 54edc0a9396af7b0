/// One evaluation pass over many targets: the kernel's answers, the paths that targets with the
/// same answers share, and the order of the available interfaces, all made once for the pass.
///
/// Each distinct question is asked once; a batch's new destinations are asked together (one
/// `sendmsg` for many), so ten thousand monitors behind one default route cost one lookup and
/// share one path's storage. A value with no queue of its own: the engine makes one per pass on
/// its queue, and tests make one with a table of answers.
struct EvaluationPass<Oracle: RouteAnswering> {
    let snapshot: KernelSnapshot
    let supportsDNS: Bool
    /// Each available link's best default-route metric, for the order of `availableInterfaces`;
    /// empty with fewer than two available links (nothing to order).
    private(set) var preference: [Int: UInt32] = [:]
    /// Whether this pass asked for `preference` (two or more links, none known).
    private(set) var askedPreference = false
    /// How many questions went to the oracle.
    private(set) var lookups = 0
    private let oracle: Oracle
    private(set) var answers: [RouteQuestion: RouteAnswer] = [:]
    private var sharedPaths: [PathSharingKey: NetworkPath] = [:]
    /// One ordered list for the pass; each path moves its own interface to the front.
    private var available: [NetworkInterface] = []

    /// Targets are evaluated (and their destinations asked together) this many at a time.
    static var batchSize: Int { 128 }

    /// - Parameter knownPreference: the preference of an earlier pass of the same routing state,
    ///   nil to ask for it (only when two or more links are available).
    init(snapshot: KernelSnapshot, supportsDNS: Bool, oracle: Oracle, knownPreference: [Int: UInt32]?) {
        self.snapshot = snapshot
        self.supportsDNS = supportsDNS
        self.oracle = oracle
        // Sized once: grown from empty, a dictionary reallocates at 1, 2, 4 and 8 entries (issue 13).
        answers.reserveCapacity(8)
        let links = Evaluator.availableLinks(in: snapshot)
        if links.count > 1 {
            if let knownPreference {
                preference = knownPreference
            } else {
                askedPreference = true
                preference.reserveCapacity(links.count)
                // Through the pass's answers, so a filtered general-path monitor reuses them.
                for link in links {
                    for family in [IPAddress.Family.ipv4, .ipv6] {
                        if case .route(let route) = answer(.defaultRoute(family, outputInterface: link.index)) {
                            preference[link.index] = min(preference[link.index] ?? .max, route.metric)
                        }
                    }
                }
            }
        }
        available = Evaluator.availableInterfaces(ordering: links, preference: preference)
    }

    /// The answer to `question`, asked of the oracle once per pass.
    mutating func answer(_ question: RouteQuestion) -> RouteAnswer {
        if let known = answers[question] { return known }
        let answer = oracle.answer(question)
        lookups += 1
        answers[question] = answer
        return answer
    }

    /// Evaluates `targets` in order, handing each path (nil: a name still pending, unless
    /// `includingPending`) to `body` as soon as it is made.
    ///
    /// - Parameter resolution: the resolution a host target is evaluated with; nil for other targets.
    mutating func evaluate(_ targets: [MonitorTarget], includingPending: Bool = false,
                           resolution: (MonitorTarget) -> HostResolution?, each body: (Int, NetworkPath?) -> Void) {
        var batchStart = 0
        while batchStart < targets.count {
            let batch = batchStart..<min(batchStart + Self.batchSize, targets.count)
            batchStart = batch.upperBound
            let asked = batch.map { position -> (resolution: HostResolution?, questions: [RouteQuestion]?) in
                let resolution = resolution(targets[position])
                return (resolution, Evaluator.questions(for: targets[position], in: snapshot, resolution: resolution))
            }
            askTogether(asked)
            for (position, (resolution, questions)) in zip(batch, asked) {
                if resolution?.state == .pending && !includingPending {
                    body(position, nil)
                    continue
                }
                body(position, path(for: targets[position], questions: questions, resolution: resolution))
            }
        }
    }

    private mutating func path(for target: MonitorTarget, questions: [RouteQuestion]?, resolution: HostResolution?) -> NetworkPath {
        var targetAnswers: [RouteAnswer] = []
        targetAnswers.reserveCapacity(questions?.count ?? 0)
        for question in questions ?? [] { targetAnswers.append(answer(question)) }
        let key = PathSharingKey(target: target, questions: questions, answers: targetAnswers)
        if let key, let shared = sharedPaths[key] { return shared }
        let path = Evaluator.evaluate(target, questions: questions, answers: targetAnswers, in: snapshot,
                                      supportsDNS: supportsDNS, resolution: resolution, preference: preference,
                                      available: available)
        if let key { sharedPaths[key] = path }
        return path
    }

    /// Asks, together, the distinct destination questions of `asked` that the pass has no
    /// answer to yet. (Default-route questions take probes in turn and are asked one by one when met.)
    private mutating func askTogether(_ asked: [(resolution: HostResolution?, questions: [RouteQuestion]?)]) {
        // A lone target (the common monitor) asks its one question through `answer`: no set, no array.
        let count = asked.reduce(0) { $0 + ($1.questions?.count ?? 0) }
        guard count > 1 else { return }
        var seen = Set<RouteQuestion>(minimumCapacity: count)
        var requests: [RouteRequest] = []
        requests.reserveCapacity(count)
        for question in asked.lazy.compactMap(\.questions).joined() {
            guard case .destination(let request) = question, answers[question] == nil, seen.insert(question).inserted else { continue }
            requests.append(request)
        }
        guard requests.count > 1 else { return }
        for (request, found) in zip(requests, oracle.answers(requests)) {
            answers[.destination(request)] = found
        }
        lookups += requests.count
    }
}
