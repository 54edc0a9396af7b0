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
    /// A pass the links moved under, kept for its tables' storage: the next pass is made in it.
    var spare: EvaluationPass?
    /// Each interface's default-route metric, asked once per generation.
    var preference: (generation: UInt64, metrics: [Int: UInt32])?

    /// The epoch of the last pass made afresh (`EvaluationPass.epoch`).
    private var lastPassEpoch: UInt64 = 0

    /// The links the last change touched, and what they were before it: kept for their storage.
    private var touched: [LinkTables.Touch] = []
    private var priors: [LinkChanges.Prior] = []

    init(snapshot: KernelSnapshot) {
        self.snapshot = snapshot
    }

    /// Brings the snapshot up to date with what the caches changed, and says what moved: in
    /// place, from the links the caches' callbacks touched; afresh when an announcement moved
    /// (it changes links with no message of theirs).
    mutating func apply(from sockets: EngineSockets, afresh: Bool) -> LinkChanges {
        // Out first, and without the snapshot: it shares the snapshot's storage, which would be
        // copied as the snapshot changes.
        var kept = template.take()
        kept?.pass.releaseSnapshot()
        defer { if let kept { spare = kept.takePass() } }
        if afresh {
            let old = snapshot
            snapshot = sockets.freshSnapshot()
            return LinkChanges(from: old, to: snapshot)
        }
        sockets.events.takeTouched(into: &touched)
        guard !touched.isEmpty else { return LinkChanges() }
        priors.removeAll(keepingCapacity: true)
        for touch in touched {
            priors.append(LinkChanges.Prior(index: touch.index, addressesMoved: touch.addresses, in: snapshot))
        }
        // A Wi-Fi link's quality is measured again on every change of links or addresses.
        for link in snapshot.links.values where link.traits.isWiFi {
            if !touched.contains(where: { $0.index == link.index }) {
                priors.append(LinkChanges.Prior(index: link.index, addressesMoved: false, in: snapshot))
            }
        }
        sockets.update(&snapshot, touched: touched)
        // Addresses that came or went beside others leave the last pass's links and their order
        // as they were: it is kept, over the new snapshot.
        if var stands = kept, priors.allSatisfy({ $0.standsAsItWas(in: snapshot) }) {
            kept = nil
            stands.pass.rebase(onto: snapshot)
            template = stands
        }
        return LinkChanges(priors: priors, in: snapshot)
    }

    /// The routing may have changed: the interfaces' order and preference are asked again.
    mutating func routingMoved() {
        generation &+= 1
    }

    /// An epoch no pass of this engine had: for a pass made afresh.
    mutating func nextPassEpoch() -> UInt64 {
        lastPassEpoch &+= 1
        return lastPassEpoch
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

        /// The pass, moved out: a copy would count each of its tables up, and the template's end
        /// down again, every turn.
        consuming func takePass() -> EvaluationPass { pass }
    }
}
