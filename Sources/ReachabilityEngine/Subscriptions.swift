import ReachabilityLoop
import ReachabilityModel

/// The monitors an engine delivers to, and the interface of the path it last gave each (absent:
/// no route), so that picking whom a link change can move reads no monitor's lock.
struct Subscriptions {
    private(set) var cores: [ObjectIdentifier: any PathSubscriber] = [:]
    private(set) var interfaces: [ObjectIdentifier: Int] = [:]

    var isEmpty: Bool { cores.isEmpty }
    var all: Dictionary<ObjectIdentifier, any PathSubscriber>.Values { cores.values }

    func contains(_ id: ObjectIdentifier) -> Bool { cores[id] != nil }

    mutating func add(_ core: any PathSubscriber) {
        cores[ObjectIdentifier(core)] = core
    }

    mutating func remove(_ id: ObjectIdentifier) {
        cores[id] = nil
        interfaces[id] = nil
    }

    /// Keeps the interface `path` leaves by as `core`'s, while it is subscribed.
    mutating func note(_ path: NetworkPath, for core: any PathSubscriber) {
        let id = ObjectIdentifier(core)
        guard cores[id] != nil else { return }
        interfaces[id] = path.interface?.index
    }

    /// The interface `core`'s last path left by.
    func lastInterface(of core: any PathSubscriber) -> Int? { interfaces[ObjectIdentifier(core)] }
}
