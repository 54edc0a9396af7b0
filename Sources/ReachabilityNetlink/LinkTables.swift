import ReachabilityModel
import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// libnl's link and address caches as Swift values, kept in step with them object by object:
/// filled by a walk of the caches when they are filled (at start and after a resync), then
/// changed by libnl's change callbacks as each message is applied, so a change is never followed
/// by a walk of the caches.
///
/// Each link or address whose values moved is noted in `touched`, which the engine takes to bring
/// its snapshot up to date in place (`EngineSockets.update`).
package struct LinkTables {
    /// The links: libnl's AF_UNSPEC objects, by index.
    package private(set) var links: [Int: LinkState] = [:]
    /// AF_BRIDGE objects of kind "bridge": they stand in for a bridge with no AF_UNSPEC object.
    package private(set) var bridges: [Int: LinkState] = [:]
    /// Every cached address, in the order they came, including those of links not (yet) known.
    package private(set) var addresses: [InterfaceAddress] = []
    /// What moved since the engine last took it: one entry a link, in the order first touched.
    private(set) var touched: [Touch] = []

    /// A link whose state, or whose addresses, moved.
    package struct Touch: Sendable, Equatable {
        package var index: Int
        /// Whether one of its addresses came, went or changed.
        package var addresses: Bool
        /// Whether the link object itself moved (else only its addresses did).
        package var link: Bool
    }

    init() {}

    /// The link at `index`, as a snapshot shows it: its own object, or a bridge's stand-in.
    package func link(_ index: Int) -> LinkState? {
        links[index] ?? bridges[index]
    }

    /// Hands over what moved since the last call, keeping the list's storage for the next turn.
    mutating func takeTouched(into list: inout [Touch]) {
        list.removeAll(keepingCapacity: true)
        swap(&list, &touched)
    }

    /// Drops what moved: the engine makes its snapshot afresh instead.
    mutating func dropTouched() {
        touched.removeAll(keepingCapacity: true)
    }

    // MARK: - Filled by a walk

    /// Empties the tables before a walk of the caches; what was touched is dropped too, as the
    /// walk's snapshot replaces the engine's whole.
    mutating func removeAll() {
        links.removeAll(keepingCapacity: true)
        bridges.removeAll(keepingCapacity: true)
        addresses.removeAll(keepingCapacity: true)
        touched.removeAll(keepingCapacity: true)
    }

    /// Adds a cached link object met in a walk.
    mutating func walked(link object: OpaquePointer) {
        guard let (index, isBridge) = Self.linkIdentity(of: object) else { return }
        let state = Self.linkState(of: object, index: index)
        if isBridge { bridges[index] = state } else { links[index] = state }
    }

    /// Adds a cached address object met in a walk.
    mutating func walked(address object: OpaquePointer) {
        if let address = Self.address(from: object) { addresses.append(address) }
    }

    // MARK: - Changed by libnl's callbacks

    /// libnl added (`old` nil), changed, or removed (`new` nil) a link object.
    /// - Returns: whether a link moved (not only a value no path reads).
    @discardableResult
    mutating func linkChanged(old: OpaquePointer?, new: OpaquePointer?) -> Bool {
        if let old, new == nil, let (index, isBridge) = Self.linkIdentity(of: old) {
            if isBridge { bridges[index] = nil } else { links[index] = nil }
            touch(index, addresses: false, link: true)
            return true
        }
        guard let new, let (index, isBridge) = Self.linkIdentity(of: new) else { return false }
        // An attribute we do not read (statistics, MTU, ...): nothing moved, and no value is made.
        if let old, Self.linkIdentity(of: old) != nil, Self.sameValues(old, new) { return false }
        let state = Self.linkState(of: new, index: index)
        if isBridge { bridges[index] = state } else { links[index] = state }
        touch(index, addresses: false, link: true)
        return true
    }

    /// libnl added (`old` nil), changed, or removed (`new` nil) an address object. libnl moves a
    /// changed object to the end of its cache; so does this list.
    /// - Returns: the family of the address that moved; nil when nothing a path reads did.
    @discardableResult
    mutating func addressChanged(old: OpaquePointer?, new: OpaquePointer?) -> IPAddress.Family? {
        let before = old.flatMap(Self.address(from:))
        let after = new.flatMap(Self.address(from:))
        guard before != after else { return nil }  // lifetimes, flags, labels: nothing a path reads
        if let before, let position = addresses.firstIndex(of: before) {
            addresses.remove(at: position)
            touch(before.interfaceIndex, addresses: true, link: false)
        }
        if let after {
            addresses.append(after)
            touch(after.interfaceIndex, addresses: true, link: false)
        }
        return (after ?? before)?.address.family
    }

    private mutating func touch(_ index: Int, addresses: Bool, link: Bool) {
        if let position = touched.firstIndex(where: { $0.index == index }) {
            touched[position].addresses = touched[position].addresses || addresses
            touched[position].link = touched[position].link || link
        } else {
            touched.append(Touch(index: index, addresses: addresses, link: link))
        }
    }

    // MARK: - libnl's objects read

    /// A link object's index, and whether it is a bridge's stand-in; nil for an object that is
    /// neither (libnl's per-family objects of other families). Makes no Swift value.
    private static func linkIdentity(of object: OpaquePointer) -> (index: Int, isBridge: Bool)? {
        let family = rtnl_link_get_family(object)
        // AF_UNSPEC objects are the links; AF_BRIDGE ones only stand in for a bridge we have no other record of.
        if family == AF_BRIDGE, let kind = rtnl_link_get_type(object), strcmp(kind, "bridge") == 0 {
            return (Int(rtnl_link_get_ifindex(object)), true)
        }
        return family == AF_UNSPEC ? (Int(rtnl_link_get_ifindex(object)), false) : nil
    }

    /// Whether two objects of one link hold the same values of those a `LinkState` reads.
    private static func sameValues(_ old: OpaquePointer, _ new: OpaquePointer) -> Bool {
        rtnl_link_get_flags(old) == rtnl_link_get_flags(new)
            && rtnl_link_get_operstate(old) == rtnl_link_get_operstate(new)
            && rtnl_link_get_arptype(old) == rtnl_link_get_arptype(new)
            && sameString(rtnl_link_get_name(old), rtnl_link_get_name(new))
            && sameString(rtnl_link_get_type(old), rtnl_link_get_type(new))
    }

    private static func sameString(_ a: UnsafePointer<CChar>?, _ b: UnsafePointer<CChar>?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return strcmp(a, b) == 0
    }

    private static func linkState(of object: OpaquePointer, index: Int) -> LinkState {
        LinkState(
            index: index,
            name: rtnl_link_get_name(object).map { String(cString: $0) } ?? "if\(index)",
            flags: LinkState.Flags(rawValue: UInt32(rtnl_link_get_flags(object))),
            operationalState: LinkState.OperationalState(rawValue: rtnl_link_get_operstate(object)) ?? .unknown,
            hardwareType: UInt32(rtnl_link_get_arptype(object)),
            kind: rtnl_link_get_type(object).map { String(cString: $0) }
        )
    }

    private static func address(from object: OpaquePointer) -> InterfaceAddress? {
        guard let address = IPAddress(netlinkAddress: rtnl_addr_get_local(object)) else { return nil }
        return InterfaceAddress(
            interfaceIndex: Int(rtnl_addr_get_ifindex(object)),
            address: address,
            prefixLength: Int(rtnl_addr_get_prefixlen(object)),
            scope: UInt8(truncatingIfNeeded: rtnl_addr_get_scope(object))
        )
    }
}
