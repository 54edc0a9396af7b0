import ReachabilityModel
import ReachabilitySystem
/// The attributes of a route message, or of one next hop inside its RTA_MULTIPATH, that
/// `RouteMessageParser` reads: each as the byte range of its data in the message, the last one
/// of its type winning, as libnl's `nla_parse` keeps them.
package struct RouteAttributes {
    /// `enum rtattr_type_t` of `<linux/rtnetlink.h>`, spelled out so that the parser builds
    /// without libnl's headers (`scripts/fuzz`); `RouteMessageParserTests` checks them against it.
    package enum Kind {
        package static let inputInterface: UInt16 = 3  // RTA_IIF
        package static let outputInterface: UInt16 = 4  // RTA_OIF
        package static let gateway: UInt16 = 5  // RTA_GATEWAY
        package static let priority: UInt16 = 6  // RTA_PRIORITY
        package static let preferredSource: UInt16 = 7  // RTA_PREFSRC
        package static let multipath: UInt16 = 9  // RTA_MULTIPATH
        package static let flow: UInt16 = 11  // RTA_FLOW
        package static let cacheInfo: UInt16 = 12  // RTA_CACHEINFO
        package static let table: UInt16 = 15  // RTA_TABLE
        package static let via: UInt16 = 18  // RTA_VIA
        package static let newDestination: UInt16 = 19  // RTA_NEWDST
        package static let encapType: UInt16 = 21  // RTA_ENCAP_TYPE
        package static let encap: UInt16 = 22  // RTA_ENCAP
        package static let ttlPropagate: UInt16 = 26  // RTA_TTL_PROPAGATE
    }

    /// `NLA_TYPE_MASK`: the type without `NLA_F_NESTED` and `NLA_F_NET_BYTEORDER`.
    package static let typeMask: UInt16 = 0x3FFF
    /// `NLA_HDRLEN`: `struct nlattr`, 2 bytes of length (header included) and 2 of type.
    package static let headerLength = 4

    package var outputInterface: Range<Int>?
    package var gateway: Range<Int>?
    package var priority: Range<Int>?
    package var preferredSource: Range<Int>?
    package var multipath: Range<Int>?
    package var flow: Range<Int>?
    package var table: Range<Int>?
    package var via: Range<Int>?
    package var newDestination: Range<Int>?
    package var encapType: Range<Int>?
    package var encap: Range<Int>?
    /// `struct rta_cacheinfo`: where the route's remaining lifetime is.
    package var cacheInfo: Range<Int>?

    /// The least data length libnl 3.7's `route_policy` accepts for an attribute type: shorter
    /// makes `nla_parse` fail, and with it the whole message. RTA_VIA is not in that policy, but
    /// libnl cannot build an address from one without room for its 2-byte family and fails too.
    package static func minimumLength(of kind: UInt16) -> Int {
        switch kind {
        case Kind.inputInterface, Kind.outputInterface, Kind.priority, Kind.flow: 4
        case Kind.cacheInfo: 32  // struct rta_cacheinfo
        case Kind.encapType, Kind.via: 2
        case Kind.ttlPropagate: 1
        default: 0
        }
    }

    /// Collects the attributes in `payload[start..<end]` (`end` defaults to the end of `payload`).
    ///
    /// Reading stops at the first attribute whose length is below its header or runs past `end`,
    /// as `nla_for_each_attr` does; what came before it is kept.
    ///
    /// - Returns: false when an attribute is shorter than `minimumLength(of:)` allows.
    package mutating func read(_ payload: UnsafeRawBufferPointer, from start: Int, to end: Int? = nil) -> Bool {
        let end = min(end ?? payload.count, payload.count)
        var offset = start
        while end - offset >= Self.headerLength {
            let length = Int(payload.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
            guard length >= Self.headerLength, length <= end - offset else { break }
            let kind = payload.loadUnaligned(fromByteOffset: offset + 2, as: UInt16.self) & Self.typeMask
            let data = offset + Self.headerLength ..< offset + length
            guard data.count >= Self.minimumLength(of: kind) else { return false }
            switch kind {
            case Kind.outputInterface: outputInterface = data
            case Kind.gateway: gateway = data
            case Kind.priority: priority = data
            case Kind.preferredSource: preferredSource = data
            case Kind.multipath: multipath = data
            case Kind.flow: flow = data
            case Kind.table: table = data
            case Kind.via: via = data
            case Kind.newDestination: newDestination = data
            case Kind.encapType: encapType = data
            case Kind.encap: encap = data
            case Kind.cacheInfo: cacheInfo = data
            default: break
            }
            offset += RouteMessageParser.align(length)
        }
        return true
    }
}
