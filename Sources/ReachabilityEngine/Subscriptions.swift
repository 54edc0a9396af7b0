import ReachabilityEvaluation
import ReachabilityLoop
import ReachabilityModel

/// The monitors an engine delivers to, and what it last gave each: the path's interface (absent:
/// no route), so that picking whom a link change can move reads no monitor's lock, and the
/// verdict's stamp, so that a turn that did not move it builds no path.
struct Subscriptions {
    /// The subscribers in a list, so a turn that evaluates all of them hands this list on
    /// instead of copying it; `positions` finds one to take out in place (the last moves into
    /// its slot).
    private(set) var all: [any PathSubscriber] = []
    private var positions: [ObjectIdentifier: Int] = [:]
    private var held: [ObjectIdentifier: Held] = [:]

    /// What a subscriber was last given.
    private struct Held {
        var interface: Int?
        var stamp: PathVerdict?
    }

    var isEmpty: Bool { all.isEmpty }

    func contains(_ id: ObjectIdentifier) -> Bool { positions[id] != nil }

    mutating func add(_ core: any PathSubscriber) {
        let id = ObjectIdentifier(core)
        if let position = positions[id] { return all[position] = core }
        positions[id] = all.count
        all.append(core)
    }

    mutating func remove(_ id: ObjectIdentifier) {
        held[id] = nil
        guard let position = positions.removeValue(forKey: id) else { return }
        let last = all.removeLast()
        if position < all.count {
            all[position] = last
            positions[ObjectIdentifier(last)] = position
        }
    }

    /// Keeps the interface `path` leaves by as `core`'s, and the stamp of the verdict it was made
    /// from (nil: none, or one that does not fit), while it is subscribed.
    mutating func note(_ path: NetworkPath, stamp: PathVerdict?, for core: any PathSubscriber) {
        let id = ObjectIdentifier(core)
        guard positions[id] != nil else { return }
        held[id] = Held(interface: path.interface?.index, stamp: stamp)
    }

    /// The interface `core`'s last path left by.
    func lastInterface(of core: any PathSubscriber) -> Int? { held[ObjectIdentifier(core)]?.interface }

    /// Whether `core` was last given the path of a verdict of this stamp: a path made now would
    /// be the one it holds.
    func holds(_ stamp: PathVerdict, for core: any PathSubscriber) -> Bool {
        held[ObjectIdentifier(core)]?.stamp == stamp
    }
}
