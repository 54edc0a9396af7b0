import ReachabilityLoop
import ReachabilityModel

/// The monitors an engine delivers to, and the interface of the path it last gave each (absent:
/// no route), so that picking whom a link change can move reads no monitor's lock.
struct Subscriptions {
    /// The subscribers in a list, so a turn that evaluates all of them hands this list on
    /// instead of copying it; `positions` finds one to take out in place (the last moves into
    /// its slot).
    private(set) var all: [any PathSubscriber] = []
    private var positions: [ObjectIdentifier: Int] = [:]
    private(set) var interfaces: [ObjectIdentifier: Int] = [:]

    var isEmpty: Bool { all.isEmpty }

    func contains(_ id: ObjectIdentifier) -> Bool { positions[id] != nil }

    mutating func add(_ core: any PathSubscriber) {
        let id = ObjectIdentifier(core)
        if let position = positions[id] { return all[position] = core }
        positions[id] = all.count
        all.append(core)
    }

    mutating func remove(_ id: ObjectIdentifier) {
        interfaces[id] = nil
        guard let position = positions.removeValue(forKey: id) else { return }
        let last = all.removeLast()
        if position < all.count {
            all[position] = last
            positions[ObjectIdentifier(last)] = position
        }
    }

    /// Keeps the interface `path` leaves by as `core`'s, while it is subscribed.
    mutating func note(_ path: NetworkPath, for core: any PathSubscriber) {
        let id = ObjectIdentifier(core)
        guard positions[id] != nil else { return }
        interfaces[id] = path.interface?.index
    }

    /// The interface `core`'s last path left by.
    func lastInterface(of core: any PathSubscriber) -> Int? { interfaces[ObjectIdentifier(core)] }
}
