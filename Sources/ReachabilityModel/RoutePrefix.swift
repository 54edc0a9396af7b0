import ReachabilitySystem
/// The destination prefix of a route that changed, as a route event names it (RTA_DST/dst_len).
///
/// A route added or removed for a prefix can change the route of a destination only inside that
/// prefix, so the engine asks the kernel again only for the targets the prefix covers.
///
/// The bytes are kept inline (two words, network order) rather than in an array: the engine
/// makes one prefix per route message and keeps them in a set, and an array is an allocation each
/// (allocations per change, BENCHMARKS.md).
package struct RoutePrefix: Sendable, Hashable {
    package var family: IPAddress.Family
    /// Bytes 0 to 7 of the prefix, the first in the most significant position.
    private var high: UInt64 = 0
    /// Bytes 8 to 15 (IPv6 only).
    private var low: UInt64 = 0
    package var length: Int

    /// - Parameter bytes: the prefix's bytes in network order; those past the family's size are
    ///   ignored, missing ones are zero (bits past `length` are ignored when comparing).
    ///
    /// Not generic: the engine makes one per route message, from another module, where a generic
    /// initialiser runs unspecialised (a metadata lookup and boxed iteration for each message).
    package init(family: IPAddress.Family, bytes: UnsafeRawBufferPointer, length: Int) {
        self.family = family
        self.length = length
        for index in 0..<min(bytes.count, family.byteCount) {
            if index < 8 {
                high |= UInt64(bytes[index]) << UInt64(56 - 8 * index)
            } else {
                low |= UInt64(bytes[index]) << UInt64(56 - 8 * (index - 8))
            }
        }
    }

    /// The same from any sequence of bytes (tests, the command's parsing).
    package init<Bytes: Sequence<UInt8>>(family: IPAddress.Family, bytes: Bytes, length: Int) {
        self = Array(bytes).withUnsafeBytes { RoutePrefix(family: family, bytes: $0, length: length) }
    }

    /// The byte at `index` (0 is the first in network order).
    private func byte(at index: Int) -> UInt8 {
        let word = index < 8 ? high : low
        return UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * (index % 8)))
    }

    /// Whether `address` lies inside the prefix (scope ignored).
    package func contains(_ address: IPAddress) -> Bool {
        guard address.family == family else { return false }
        return address.withUnsafeBytes { bytes in
            var remaining = min(length, family.byteCount * 8)
            var index = 0
            while remaining > 0 {
                guard index < bytes.count else { return false }
                let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
                if byte(at: index) & mask != bytes[index] & mask { return false }
                remaining -= 8
                index += 1
            }
            return true
        }
    }
}
