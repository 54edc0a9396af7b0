import ReachabilityModel
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads the kernel's RTM_NEWROUTE answer to an RTM_GETROUTE request into a `RouteEntry`, as
/// libnl 3.7's `rtnl_route_parse` (lib/route/route_obj.c) and our former copy out of its route
/// object read it, but in place: no route or nexthop objects, and no allocation besides the
/// `gateways` array, which a caller can spare by handing in the one it was given last.
///
/// It uses no libnl header, so `scripts/fuzz` can build it alone. What it reads:
///
/// - `type` is `rtm_type`; `table` is RTA_TABLE, else `rtm_table`; `prefixLength` is `rtm_dst_len`;
///   `metric` is RTA_PRIORITY, else 0; `preferredSource` is RTA_PREFSRC.
/// - The next hops are those of RTA_MULTIPATH, in order. Without it, RTA_OIF, RTA_GATEWAY,
///   RTA_VIA, RTA_FLOW, RTA_NEWDST or RTA_ENCAP with RTA_ENCAP_TYPE make one implicit next hop,
///   whose flags are the low byte of `rtm_flags`. With both, libnl keeps the multipath ones and
///   rejects the message unless the implicit hop matches the first (interface, gateway, via,
///   realms, flags): so do we.
/// - `outputInterface` is the first next hop's interface index that is above 0; `gateways` holds
///   each next hop's RTA_GATEWAY, else its RTA_VIA; `isLinkDown` is `RTNH_F_LINKDOWN` on the first.
/// - An address counts only with the length of its family (4 bytes for IPv4, 16 for IPv6); the
///   family of RTA_GATEWAY and RTA_PREFSRC is `rtm_family`, that of RTA_VIA its own `rtvia_family`.
///
/// Malformed input never reads out of bounds. As in libnl: attributes are read until the first
/// whose length is below 4 or runs past the end; the last of a repeated attribute wins; an
/// attribute shorter than libnl's `route_policy` allows (RTA_OIF, RTA_PRIORITY, ... under 4
/// bytes), or an RTA_VIA without room for its family, makes the message malformed (nil). Where
/// libnl itself would misbehave we choose: an RTA_TABLE under 4 bytes is ignored, and next hops
/// are read until the first whose `rtnh_len` is below 8 or runs past the end. One deliberate
/// difference: libnl 3.7 rejects a route whose RTA_ENCAP is of a type other than MPLS (seg6,
/// ip, bpf, ...: `NLE_MSGTYPE_NOSUPPORT`); we read such a route like any other.
package enum RouteMessageParser {
    /// The length of `struct rtmsg`, where the attributes begin (already a multiple of 4).
    package static let headerLength = 12
    /// The length of `struct rtnexthop`, where a next hop's attributes begin.
    package static let nexthopHeaderLength = 8

    /// Reads one RTM_NEWROUTE message.
    ///
    /// - Parameters:
    ///   - payload: the message after its `nlmsghdr`: `struct rtmsg`, then the attributes,
    ///     `nlmsg_len - NLMSG_HDRLEN` bytes long.
    ///   - recent: gateways an earlier answer gave; a route of that one gateway shares its
    ///     array rather than allocating another.
    /// - Returns: the route, or nil when the message is malformed (too short for `struct rtmsg`,
    ///   an attribute shorter than its type allows, or an implicit next hop that contradicts the
    ///   multipath ones).
    package static func entry(fromPayload payload: UnsafeRawBufferPointer, reusing recent: [IPAddress] = []) -> RouteEntry? {
        guard payload.count >= headerLength else { return nil }
        let family = Int32(payload[0])
        var attributes = RouteAttributes()
        guard attributes.read(payload, from: headerLength) else { return nil }
        var entry = RouteEntry(
            type: RouteType(rtnType: payload[7]),
            table: attributes.table.flatMap { u32(payload, $0) } ?? UInt32(payload[4]),
            prefixLength: Int(payload[1]),
            outputInterface: nil,
            gateways: [],
            preferredSource: attributes.preferredSource.flatMap { address(payload, $0, family: family) },
            isLinkDown: false,
            metric: attributes.priority.flatMap { u32(payload, $0) } ?? 0
        )
        entry.expiresIn = attributes.cacheInfo.flatMap { expiry(payload, $0) }

        var first: Nexthop?
        if let multipath = attributes.multipath {
            var offset = multipath.lowerBound
            // rtnh_ok: room for the header, and a length that covers it and stays inside.
            while multipath.upperBound - offset >= nexthopHeaderLength {
                let length = Int(payload.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
                guard length >= nexthopHeaderLength, length <= multipath.upperBound - offset else { break }
                var nested = RouteAttributes()
                guard nested.read(payload, from: offset + nexthopHeaderLength, to: offset + length) else { return nil }
                let hop = Nexthop(
                    interfaceIndex: payload.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                    flags: payload[offset + 2],
                    attributes: nested
                )
                add(hop, to: &entry, payload: payload, family: family, isFirst: first == nil, reusing: recent)
                if first == nil { first = hop }
                offset += align(length)
            }
        }
        // rtm_flags carries the flags of a single path (RTNH_F_*) in its low byte.
        let flags = UInt8(truncatingIfNeeded: payload.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        if let implicit = Nexthop(implicitFrom: attributes, payload: payload, flags: flags) {
            if let first {
                guard implicit.isCompatible(with: first, in: payload) else { return nil }
            } else {
                add(implicit, to: &entry, payload: payload, family: family, isFirst: true, reusing: recent)
            }
        }
        return entry
    }

    /// Reads an RTM_DELROUTE message as far as `DeletedRoute` goes, allocating nothing: a
    /// route of several next hops is only marked so. nil when malformed or of another family.
    package static func deletedRoute(fromPayload payload: UnsafeRawBufferPointer) -> DeletedRoute? {
        guard payload.count >= headerLength else { return nil }
        let family: IPAddress.Family
        switch Int32(payload[0]) {
        case AF_INET: family = .ipv4
        case AF_INET6: family = .ipv6
        default: return nil
        }
        var attributes = RouteAttributes()
        guard attributes.read(payload, from: headerLength) else { return nil }
        let index = attributes.outputInterface.flatMap { u32(payload, $0) }.map { Int(Int32(bitPattern: $0)) }
        return DeletedRoute(
            family: family,
            type: RouteType(rtnType: payload[7]),
            table: attributes.table.flatMap { u32(payload, $0) } ?? UInt32(payload[4]),
            prefixLength: Int(payload[1]),
            metric: attributes.priority.flatMap { u32(payload, $0) } ?? 0,
            outputInterface: index.flatMap { $0 > 0 ? $0 : nil },
            gateway: attributes.gateway.flatMap { address(payload, $0, family: Int32(payload[0])) }
                ?? attributes.via.flatMap { via(payload, $0) },
            isMultipath: attributes.multipath != nil
        )
    }

    /// Folds one next hop into the entry, in the order libnl lists them.
    private static func add(_ hop: Nexthop, to entry: inout RouteEntry, payload: UnsafeRawBufferPointer, family: Int32,
                            isFirst: Bool, reusing recent: [IPAddress]) {
        // rtnl_route_nh_get_ifindex returns an int: an index of 2^31 or more reads as negative.
        let index = Int(Int32(bitPattern: hop.interfaceIndex ?? 0))
        if entry.outputInterface == nil, index > 0 { entry.outputInterface = index }
        if let gateway = hop.attributes.gateway.flatMap({ address(payload, $0, family: family) })
            ?? hop.attributes.via.flatMap({ via(payload, $0) }) {
            if entry.gateways.isEmpty, recent.count == 1, recent[0] == gateway {
                entry.gateways = recent
            } else {
                entry.gateways.append(gateway)
            }
        }
        if isFirst, hop.flags & linkDownFlag != 0 { entry.isLinkDown = true }
    }

    /// `RTNH_F_LINKDOWN`.
    package static let linkDownFlag: UInt8 = 0x10

    /// Rounds up to a multiple of 4 (`NLA_ALIGN`, `RTNH_ALIGN`).
    package static func align(_ length: Int) -> Int { (length + 3) & ~3 }

    /// The first 4 bytes of an attribute in host order (`nla_get_u32`), nil when shorter.
    package static func u32(_ payload: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt32? {
        guard range.count >= 4 else { return nil }
        return payload.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt32.self)
    }

    /// An address of `family` whose bytes are the whole attribute; nil for another length or family.
    package static func address(_ payload: UnsafeRawBufferPointer, _ range: Range<Int>, family: Int32) -> IPAddress? {
        switch (family, range.count) {
        case (AF_INET, 4): IPAddress(family: .ipv4, raw: UnsafeRawBufferPointer(rebasing: payload[range]))
        case (AF_INET6, 16): IPAddress(family: .ipv6, raw: UnsafeRawBufferPointer(rebasing: payload[range]))
        default: nil
        }
    }

    /// The address of a `struct rtvia`: `rtvia_family` (2 bytes, host order), then the address.
    package static func via(_ payload: UnsafeRawBufferPointer, _ range: Range<Int>) -> IPAddress? {
        guard range.count >= 2 else { return nil }
        let family = Int32(payload.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt16.self))
        return address(payload, range.lowerBound + 2 ..< range.upperBound, family: family)
    }

    /// Whether two attributes hold the same bytes.
    package static func sameBytes(_ payload: UnsafeRawBufferPointer, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && payload[a].elementsEqual(payload[b])
    }
}

/// One next hop: an entry of RTA_MULTIPATH (`struct rtnexthop` and its attributes), or the
/// implicit one that a single-path route's own attributes make.
private struct Nexthop {
    /// `rtnh_ifindex`, or RTA_OIF; nil for an implicit next hop without RTA_OIF.
    var interfaceIndex: UInt32?
    /// `rtnh_flags` (`RTNH_F_*`), or the low byte of `rtm_flags`.
    var flags: UInt8
    /// Where RTA_GATEWAY, RTA_VIA, RTA_FLOW, RTA_NEWDST and RTA_ENCAP are.
    var attributes: RouteAttributes

    /// The next hop libnl makes from a route's own attributes, or nil when it makes none
    /// (no RTA_OIF, RTA_GATEWAY, RTA_VIA, RTA_FLOW, RTA_NEWDST, nor RTA_ENCAP with its type).
    init?(implicitFrom attributes: RouteAttributes, payload: UnsafeRawBufferPointer, flags: UInt8) {
        let hasEncap = attributes.encap != nil && attributes.encapType != nil
        guard attributes.outputInterface != nil || attributes.gateway != nil || attributes.via != nil
            || attributes.flow != nil || attributes.newDestination != nil || hasEncap else { return nil }
        self.init(
            interfaceIndex: attributes.outputInterface.flatMap { RouteMessageParser.u32(payload, $0) },
            flags: flags,
            attributes: attributes
        )
    }

    init(interfaceIndex: UInt32?, flags: UInt8, attributes: RouteAttributes) {
        self.interfaceIndex = interfaceIndex
        self.flags = flags
        self.attributes = attributes
    }

    /// libnl's check, when a route has both, that its implicit next hop (`self`) repeats the
    /// first multipath one: `rtnl_route_nh_compare` over what the implicit hop has, flags
    /// always, exactly. Encapsulations are compared byte for byte.
    func isCompatible(with first: Nexthop, in payload: UnsafeRawBufferPointer) -> Bool {
        func same(_ mine: Range<Int>?, _ theirs: Range<Int>?) -> Bool {
            guard let mine else { return true }
            guard let theirs else { return false }
            return RouteMessageParser.sameBytes(payload, mine, theirs)
        }
        func hasEncap(_ hop: Nexthop) -> Bool { hop.attributes.encap != nil && hop.attributes.encapType != nil }
        if let index = interfaceIndex, index != first.interfaceIndex { return false }
        let realms = attributes.flow.flatMap { RouteMessageParser.u32(payload, $0) }
        if let realms, realms != first.attributes.flow.flatMap({ RouteMessageParser.u32(payload, $0) }) { return false }
        if hasEncap(self) {
            guard hasEncap(first), same(attributes.encap, first.attributes.encap),
                  same(attributes.encapType, first.attributes.encapType) else { return false }
        }
        return flags == first.flags
            && same(attributes.gateway, first.attributes.gateway)
            && same(attributes.via, first.attributes.via)
            && same(attributes.newDestination, first.attributes.newDestination)
    }
}
