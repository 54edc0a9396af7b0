/// The destination prefix of a route that changed, as a route event names it (RTA_DST/dst_len).
///
/// A route added or removed for a prefix can change the route of a destination only inside that
/// prefix, so the engine asks the kernel again only for the targets the prefix covers.
struct RoutePrefix: Sendable, Hashable {
    var family: IPAddress.Family
    /// The prefix's bytes in network order (as many as the family has; bits past `length` ignored).
    var bytes: [UInt8]
    var length: Int

    /// Whether `address` lies inside the prefix (scope ignored).
    func contains(_ address: IPAddress) -> Bool {
        guard address.family == family else { return false }
        var remaining = min(length, family.byteCount * 8)
        var index = 0
        while remaining > 0 {
            guard index < bytes.count, index < address.bytes.count else { return false }
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if bytes[index] & mask != address.bytes[index] & mask { return false }
            remaining -= 8
            index += 1
        }
        return true
    }
}
