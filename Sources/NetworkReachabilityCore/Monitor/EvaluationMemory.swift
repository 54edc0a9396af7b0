import ReachabilityEvaluation
import ReachabilityModel

/// What an engine's passes keep for the next turn, so that a turn computes only what its
/// messages can have moved: the kernel's answers (`AnswerBook`), the last pass's link order
/// (rebuilt only when the links, the routing or the name servers changed), the interfaces'
/// preference, and the recent one-target paths (`RecentPaths`).
struct EvaluationMemory {
    var answers = AnswerBook()
    /// The last pass with its answers taken out: its available links, their order and preference.
    var template: PassTemplate?
    /// Each interface's default-route metric, asked once per routing generation.
    var preference: (generation: UInt64, metrics: [Int: UInt32])?
    /// Paths of one-target passes, shared when equal.
    var recentPaths = RecentPaths()

    /// A pass's link-derived state and what it was computed from.
    struct PassTemplate {
        var routingGeneration: UInt64
        var nameServers: NameServerScope
        var pass: EvaluationPass

        /// Whether a pass now would compute the same: same links (the template is dropped when
        /// they change), same name servers, and, where interfaces are ordered by their default
        /// routes, the same routing.
        func fits(routingGeneration: UInt64, nameServers: NameServerScope) -> Bool {
            self.nameServers == nameServers && (!pass.ordersInterfaces || self.routingGeneration == routingGeneration)
        }
    }

    /// The links or addresses changed: the next pass computes their order again.
    mutating func linksChanged() {
        template = nil
    }
}
