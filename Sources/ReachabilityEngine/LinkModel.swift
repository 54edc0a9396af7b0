import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink

/// The engine's model of links and addresses, and what passes derive from it: the snapshot of
/// the kernel's links and addresses, a generation that moves whenever the routing may have
/// changed, the last pass's link-derived state (`template`, dropped when the snapshot changes)
/// and the interfaces' preference (asked once per generation).
struct LinkModel {
    var snapshot: KernelSnapshot {
        didSet { template = nil }
    }
    /// Moves whenever links, addresses, routes or rules may have changed.
    var generation: UInt64 = 0
    /// The last pass with its answers taken out: its available links, their order and preference.
    var template: PassTemplate?
    /// Each interface's default-route metric, asked once per generation.
    var preference: (generation: UInt64, metrics: [Int: UInt32])?

    init(snapshot: KernelSnapshot) {
        self.snapshot = snapshot
    }

    /// The routing may have changed: the interfaces' order and preference are asked again.
    mutating func routingMoved() {
        generation &+= 1
    }

    /// The preference known for this generation, if it was asked.
    var currentPreference: [Int: UInt32]? {
        preference?.generation == generation ? preference?.metrics : nil
    }

    /// A pass's link-derived state and what it was computed from.
    struct PassTemplate {
        var generation: UInt64
        var nameServers: NameServerScope
        var pass: EvaluationPass

        /// Whether a pass now would compute the same: same links (the template is dropped when
        /// they change), same name servers, and, where interfaces are ordered by their default
        /// routes, the same routing.
        func fits(generation: UInt64, nameServers: NameServerScope) -> Bool {
            self.nameServers == nameServers && (!pass.ordersInterfaces || self.generation == generation)
        }
    }
}
