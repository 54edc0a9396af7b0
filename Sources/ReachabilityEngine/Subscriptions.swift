import ReachabilityEvaluation
import ReachabilityLoop
import ReachabilityModel

/// The monitors an engine delivers to, and what it last gave each: the path's interface (absent:
/// no route), so that picking whom a link change can move reads no monitor's lock, and the
/// verdict's stamp, so that a turn that did not move it builds no path.
struct Subscriptions {
    /// The subscribers in a list, so a turn that evaluates all of them hands this list on
    /// instead of copying it. `targets` and `given` are kept beside it, position by position: a
    /// turn over every subscriber (`isAll`) reads their targets and what each was given by
    /// position, with no table looked up and no subscriber's target copied out of it.
    private(set) var all: [any PathSubscriber] = []
    /// Each subscriber's target (a monitor's never changes).
    private(set) var targets: [MonitorTarget] = []
    private var given: [Given] = []
    /// Where each subscriber is in `all`, to take one out in place (the last moves into its slot).
    private var positions: [ObjectIdentifier: Int] = [:]

    /// What a subscriber was last given.
    private struct Given {
        /// The interface its last path left by; nil: none, or no path given yet.
        var interface: Int?
        /// The stamp of the verdict its last path was made from; nil: none that fits.
        var stamp: PathVerdict?
    }

    var isEmpty: Bool { all.isEmpty }

    func contains(_ id: ObjectIdentifier) -> Bool { positions[id] != nil }

    /// Whether `cores` is `all` itself, not a copy or a selection: then a subscriber's position in
    /// it is its position here.
    func isAll(_ cores: [any PathSubscriber]) -> Bool {
        cores.count == all.count
            && cores.withUnsafeBufferPointer { cores in all.withUnsafeBufferPointer { $0.baseAddress == cores.baseAddress } }
    }

    func position(of core: any PathSubscriber) -> Int? { positions[ObjectIdentifier(core)] }

    mutating func add(_ core: any PathSubscriber) {
        let id = ObjectIdentifier(core)
        if let position = positions[id] { return all[position] = core }
        positions[id] = all.count
        all.append(core)
        targets.append(core.target)
        given.append(Given())
    }

    mutating func remove(_ id: ObjectIdentifier) {
        guard let position = positions.removeValue(forKey: id) else { return }
        let last = all.removeLast()
        let lastTarget = targets.removeLast()
        let lastGiven = given.removeLast()
        if position < all.count {
            all[position] = last
            targets[position] = lastTarget
            given[position] = lastGiven
            positions[ObjectIdentifier(last)] = position
        }
    }

    /// Keeps the interface `path` leaves by as the subscriber's at `position`, and the stamp of
    /// the verdict it was made from (nil: none, or one that does not fit).
    mutating func note(_ path: NetworkPath, stamp: PathVerdict?, at position: Int) {
        given[position] = Given(interface: path.interfaceIndex, stamp: stamp)
    }

    /// `note` for `core`, while it is subscribed.
    mutating func note(_ path: NetworkPath, stamp: PathVerdict?, for core: any PathSubscriber) {
        if let position = position(of: core) { note(path, stamp: stamp, at: position) }
    }

    /// The interface `core`'s last path left by.
    func lastInterface(of core: any PathSubscriber) -> Int? { position(of: core).flatMap { given[$0].interface } }

    /// Whether the subscriber at `position` was last given the path of a verdict of this stamp:
    /// a path made now would be the one it holds.
    func holds(_ stamp: PathVerdict, at position: Int) -> Bool { given[position].stamp == stamp }

    /// `holds` for `core`.
    func holds(_ stamp: PathVerdict, for core: any PathSubscriber) -> Bool {
        position(of: core).map { holds(stamp, at: $0) } ?? false
    }
}
