import ReachabilityModel
/// What a change of links or addresses can move, from the snapshots before and after it.
///
/// A link that is available (up, with carrier, and with an address that reaches beyond the link) before or
/// after the change can move any target: its routes, its place in `availableInterfaces`, the
/// default routes. A change confined to links that are available in neither snapshot, such as a
/// container's host-side veth coming or going, can move only the targets whose route leaves by
/// one of them, those that had no route (the new link may be what they lacked), and the kinds
/// whose questions depend on links directly (address pairs, filtered general paths). What such a
/// link does to routes arrives as route events, which are scoped on their own.
package struct LinkChanges: Sendable, Equatable {
    /// Indexes of the links that appeared, went away, or whose state or addresses differ.
    package var changed = LinkIndexes()
    /// Whether one of them is available before or after the change.
    package var touchesAvailableLinks = false

    package var isEmpty: Bool { changed.isEmpty }

    package init() {}

    package init(from old: KernelSnapshot, to new: KernelSnapshot) {
        guard old != new else { return }
        // Walked in place rather than through sets of keys and indexes: this runs on every link
        // or address change (allocations per change, BENCHMARKS.md). libnl's cache keeps its order, so
        // equal address lists (a link-only message) need no per-link sets at all.
        let sameAddresses = old.addresses == new.addresses
        // Per-link address sets only for hosts with many addresses: below that, comparing the
        // lists in place is cheap and allocates nothing.
        let bySets = !sameAddresses && old.addresses.count + new.addresses.count > Self.inPlaceComparisonLimit
        let oldAddresses = bySets ? Self.addressesByLink(old) : [:]
        let newAddresses = bySets ? Self.addressesByLink(new) : [:]
        for index in old.links.keys {
            let addressesDiffer = sameAddresses ? false
                : bySets ? oldAddresses[index] != newAddresses[index]
                : !Self.holdSameAddresses(index, old.addresses, new.addresses)
            if addressesDiffer || old.links[index] != new.links[index] { changed.insert(index) }
        }
        for index in new.links.keys where !old.links.keys.contains(index) {
            changed.insert(index)
        }
        // Asked of the changed links alone: the lists of available links would cost a scan and
        // an allocation each, on every link or address change.
        touchesAvailableLinks = changed.contains { Self.isAvailable($0, in: old) || Self.isAvailable($0, in: new) }
    }

    /// A link a change touched, as it was before the change.
    package struct Prior: Sendable {
        var index: Int
        var addressesMoved: Bool
        var link: LinkState?
        var wasAvailable: Bool

        package init(index: Int, addressesMoved: Bool, in old: KernelSnapshot) {
            self.index = index
            self.addressesMoved = addressesMoved
            link = old.links[index]
            wasAvailable = LinkChanges.isAvailable(index, in: old)
        }

        /// Whether the link is in `new` as it was, and as available as it was: only its
        /// addresses can have moved, which leaves the available links and their order alone.
        package func standsAsItWas(in new: KernelSnapshot) -> Bool {
            link == new.links[index] && wasAvailable == LinkChanges.isAvailable(index, in: new)
        }
    }

    /// What a change did to the links it touched, from each one as it was before (`Prior`) and
    /// as `new` holds it: a link changed when one of its addresses moved or its state differs.
    package init(priors: [Prior], in new: KernelSnapshot) {
        for prior in priors where prior.addressesMoved || prior.link != new.links[prior.index] {
            changed.insert(prior.index)
            if prior.wasAvailable || Self.isAvailable(prior.index, in: new) { touchesAvailableLinks = true }
        }
    }

    /// Whether link `index` is among `Evaluator.availableLinks(in: snapshot)`.
    static func isAvailable(_ index: Int, in snapshot: KernelSnapshot) -> Bool {
        guard let link = snapshot.links[index], link.isUp, link.hasCarrier, !link.isLoopback else { return false }
        return snapshot.addresses.contains { $0.interfaceIndex == index && $0.reachesBeyondLink }
    }

    /// Merges a later change into this one.
    package mutating func formUnion(_ other: LinkChanges) {
        changed.formUnion(other.changed)
        touchesAvailableLinks = touchesAvailableLinks || other.touchesAvailableLinks
    }

    /// Whether the change can move a target whose last path left by `lastInterface` (nil: no route).
    package func mayMove(_ target: MonitorTarget, lastInterface: Int?) -> Bool {
        if isEmpty { return false }
        if touchesAvailableLinks { return true }
        switch target {
        case .pair(_?, _): return true
        case .general(let filter) where !filter.isEmpty: return true
        default: break
        }
        guard let lastInterface else { return true }
        return changed.contains(lastInterface)
    }

    /// Above this many addresses in both snapshots together, links' addresses are compared as sets.
    package static let inPlaceComparisonLimit = 256

    /// Whether link `index` holds the same addresses in both lists, as sets (libnl's cache may
    /// list an address that went and came back in another place): each one's addresses are found
    /// in the other.
    private static func holdSameAddresses(_ index: Int, _ old: [InterfaceAddress], _ new: [InterfaceAddress]) -> Bool {
        for address in old where address.interfaceIndex == index && !new.contains(address) { return false }
        for address in new where address.interfaceIndex == index && !old.contains(address) { return false }
        return true
    }

    private static func addressesByLink(_ snapshot: KernelSnapshot) -> [Int: Set<InterfaceAddress>] {
        var result: [Int: Set<InterfaceAddress>] = [:]
        for address in snapshot.addresses { result[address.interfaceIndex, default: []].insert(address) }
        return result
    }
}
