import ReachabilityModel
/// What the path of an address target depends on, beyond the pass's shared state (links,
/// addresses, name servers): its family and the kernel's one answer. The address itself appears
/// nowhere in its path, so address targets with equal keys have equal paths and one evaluation
/// serves them all.
package struct PathSharingKey: Hashable {
    package var family: IPAddress.Family
    package var answer: RouteAnswer

    /// nil for targets whose path depends on more than that (pairs, host names, the general path)
    /// or that asked no single question.
    package init?(target: MonitorTarget, questions: [RouteQuestion]?, answers: [RouteAnswer]) {
        guard case .address = target, let question = questions?.first, questions?.count == 1, answers.count == 1 else {
            return nil
        }
        family = question.family
        answer = answers[0]
    }
}
