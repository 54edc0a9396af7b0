import ReachabilityModel
import ReachabilitySystem
import CNetlink

extension RouteRequest {
    /// The longest request: `nlmsghdr` (16), `rtmsg` (12), RTA_DST and RTA_SRC of an IPv6
    /// address (20 each) and RTA_OIF (8).
    package static let maximumMessageLength = 76

    /// Writes this request as one RTM_GETROUTE message, what `nlmsg_alloc_simple` and `nla_put`
    /// would build: `nlmsghdr`, `rtmsg` (the family, full-length destination and source prefixes,
    /// `RTM_F_FIB_MATCH` when asked), then RTA_DST, RTA_SRC when the source is of the
    /// destination's family, and RTA_OIF, each padded to 4 bytes with zeros.
    ///
    /// - Parameters:
    ///   - buffer: at least `maximumMessageLength` bytes; the message starts at its beginning.
    ///   - sequence: `nlmsg_seq`, which the kernel copies into its answer.
    ///   - port: `nlmsg_pid`, the socket's local port.
    /// - Returns: the length of the message.
    package func encode(into buffer: UnsafeMutableRawBufferPointer, sequence: UInt32, port: UInt32) -> Int {
        precondition(buffer.count >= Self.maximumMessageLength, "route request buffer too small")
        buffer.baseAddress!.initializeMemory(as: UInt8.self, repeating: 0, count: Self.maximumMessageLength)
        let family = destination.family
        let source = source.flatMap { $0.family == family ? $0 : nil }
        let headerLength = MemoryLayout<nlmsghdr>.size
        // struct rtmsg: family, dst_len, src_len, tos, table, protocol, scope, type (u8), flags (u32).
        buffer[headerLength] = UInt8(family.addressFamily)
        buffer[headerLength + 1] = UInt8(family.byteCount * 8)
        if source != nil { buffer[headerLength + 2] = UInt8(family.byteCount * 8) }
        if fibMatch { buffer.storeBytes(of: UInt32(RTM_F_FIB_MATCH), toByteOffset: headerLength + 8, as: UInt32.self) }

        var length = headerLength + MemoryLayout<rtmsg>.size
        // A static function and a returned length: a local function that captured `length` boxed
        // it on the heap, one allocation a lookup.
        destination.withUnsafeBytes { length = Self.put(RTA_DST, $0, into: buffer, at: length) }
        source?.withUnsafeBytes { length = Self.put(RTA_SRC, $0, into: buffer, at: length) }
        if let outputInterface {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: outputInterface)) { length = Self.put(RTA_OIF, $0, into: buffer, at: length) }
        }

        // struct nlmsghdr: len, type, flags, seq, pid.
        buffer.storeBytes(of: UInt32(length), toByteOffset: 0, as: UInt32.self)
        buffer.storeBytes(of: UInt16(RTM_GETROUTE), toByteOffset: 4, as: UInt16.self)
        buffer.storeBytes(of: UInt16(NLM_F_REQUEST), toByteOffset: 6, as: UInt16.self)
        buffer.storeBytes(of: sequence, toByteOffset: 8, as: UInt32.self)
        buffer.storeBytes(of: port, toByteOffset: 12, as: UInt32.self)
        return length
    }

    /// Writes one attribute at `offset`. - Returns: the offset after it, aligned (the padding is
    /// already zero).
    private static func put(_ type: rtattr_type_t, _ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer,
                            at offset: Int) -> Int {
        let attributeLength = MemoryLayout<nlattr>.size + bytes.count
        buffer.storeBytes(of: UInt16(attributeLength), toByteOffset: offset, as: UInt16.self)
        buffer.storeBytes(of: UInt16(type.rawValue), toByteOffset: offset + 2, as: UInt16.self)
        UnsafeMutableRawBufferPointer(rebasing: buffer[offset + MemoryLayout<nlattr>.size ..< offset + attributeLength])
            .copyMemory(from: bytes)
        return offset + RouteMessageParser.align(attributeLength)
    }
}
