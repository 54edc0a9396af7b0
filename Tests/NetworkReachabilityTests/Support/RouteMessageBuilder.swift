@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// Builds RTM_NEWROUTE messages byte by byte, as the kernel lays them out (host byte order,
/// attributes padded to 4), so the parser can be fed what no real kernel would send as well.
struct RouteMessageBuilder {
    typealias Kind = RouteAttributes.Kind

    var family = UInt8(AF_INET)
    var destinationLength: UInt8 = 32
    var table: UInt8 = 254  // RT_TABLE_MAIN
    var type: UInt8 = 1  // RTN_UNICAST
    var flags: UInt32 = 0
    /// The attributes after `struct rtmsg`, already encoded.
    var attributes: [UInt8] = []

    /// One attribute: length, type, data, zero padding to 4.
    static func attribute(_ kind: UInt16, _ data: [UInt8]) -> [UInt8] {
        var bytes = le16(UInt16(4 + data.count)) + le16(kind) + data
        bytes += [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
        return bytes
    }

    /// One `struct rtnexthop` with its nested attributes.
    static func nexthop(interface: Int32, flags: UInt8 = 0, hops: UInt8 = 0, _ nested: [UInt8] = []) -> [UInt8] {
        le16(UInt16(8 + nested.count)) + [flags, hops] + withUnsafeBytes(of: interface) { Array($0) } + nested
    }

    /// A `struct rtvia`: the family in host order, then the address.
    static func via(_ address: String) -> [UInt8] {
        let ip = Fixture.ip(address)
        return le16(UInt16(ip.family.addressFamily)) + ip.bytes
    }

    static func le16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
    static func u32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

    mutating func add(_ kind: UInt16, _ data: [UInt8]) { attributes += Self.attribute(kind, data) }
    mutating func add(_ kind: UInt16, u32 value: UInt32) { add(kind, Self.u32(value)) }
    mutating func add(_ kind: UInt16, address: String) { add(kind, Fixture.ip(address).bytes) }

    /// `struct rtmsg` and the attributes: what the parser reads.
    var payload: [UInt8] {
        [family, destinationLength, 0, 0, table, 0, 0, type] + Self.u32(flags) + attributes
    }

    /// The whole message, `nlmsghdr` first.
    func message(sequence: UInt32 = 1) -> [UInt8] {
        let body = payload
        return Self.u32(UInt32(16 + body.count)) + Self.le16(24 /* RTM_NEWROUTE */) + Self.le16(0)
            + Self.u32(sequence) + Self.u32(0) + body
    }

    /// Parses `payload` with `RouteMessageParser`, handing it `recent` gateways to share.
    static func parse(_ payload: [UInt8], reusing recent: [IPAddress] = []) -> RouteEntry? {
        payload.withUnsafeBytes { RouteMessageParser.entry(fromPayload: $0, reusing: recent) }
    }

    func parsed(reusing recent: [IPAddress] = []) -> RouteEntry? { Self.parse(payload, reusing: recent) }
}
