import ReachabilityEvaluation
import ReachabilityLoop
import ReachabilityModel

/// The monitors an engine delivers to, and what it last gave each: the path's interface (absent:
/// no route), so that picking whom a link change can move reads no monitor's lock, and the
/// verdict's stamp, so that a turn that did not move it builds no path.
struct Subscriptions {
    /// The subscribers in a list, so a turn that evaluates all of them hands this list on
    /// instead of copying it; `entries` finds one to take out in place (the last moves into its
    /// slot), and keeps what it was last given: one table, so a turn reads and writes it once a
    /// subscriber.
    private(set) var all: [any PathSubscriber] = []
    private var entries: [ObjectIdentifier: Entry] = [:]

    private struct Entry {
        /// Where the subscriber is in `all`.
        var position: Int
        /// The interface its last path left by; nil: none, or no path given yet.
        var interface: Int?
        /// The stamp of the verdict its last path was made from; nil: none that fits.
        var stamp: PathVerdict?
    }

    var isEmpty: Bool { all.isEmpty }

    func contains(_ id: ObjectIdentifier) -> Bool { entries[id] != nil }

    mutating func add(_ core: any PathSubscriber) {
        let id = ObjectIdentifier(core)
        if let entry = entries[id] { return all[entry.position] = core }
        entries[id] = Entry(position: all.count)
        all.append(core)
    }

    mutating func remove(_ id: ObjectIdentifier) {
        guard let position = entries.removeValue(forKey: id)?.position else { return }
        let last = all.removeLast()
        if position < all.count {
            all[position] = last
            entries[ObjectIdentifier(last)]?.position = position
        }
    }

    /// Keeps the interface `path` leaves by as `core`'s, and the stamp of the verdict it was made
    /// from (nil: none, or one that does not fit), while it is subscribed.
    mutating func note(_ path: NetworkPath, stamp: PathVerdict?, for core: any PathSubscriber) {
        let interface = path.interfaceIndex
        if let index = entries.index(forKey: ObjectIdentifier(core)) {
            entries.values[index].interface = interface
            entries.values[index].stamp = stamp
        }
    }

    /// The interface `core`'s last path left by.
    func lastInterface(of core: any PathSubscriber) -> Int? { entries[ObjectIdentifier(core)]?.interface }

    /// Whether `core` was last given the path of a verdict of this stamp: a path made now would
    /// be the one it holds.
    func holds(_ stamp: PathVerdict, for core: any PathSubscriber) -> Bool {
        entries[ObjectIdentifier(core)]?.stamp == stamp
    }
}
