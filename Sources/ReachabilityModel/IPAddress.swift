import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An IPv4 or IPv6 address, with the zone (`%scope`) that a link-local IPv6 address needs.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address family.
    public enum Family: Sendable, Hashable {
        case ipv4, ipv6

        /// `AF_INET` or `AF_INET6`.
        package var addressFamily: Int32 { self == .ipv4 ? AF_INET : AF_INET6 }
        /// The length of an address of this family in bytes.
        package var byteCount: Int { self == .ipv4 ? 4 : 16 }
    }

    /// The interface an IPv6 address is scoped to: by name (`%eth0`) or by index (`%3`, `sin6_scope_id`).
    public enum Scope: Sendable, Hashable, CustomStringConvertible {
        case name(String)
        case index(Int)

        public var description: String {
            switch self {
            case .name(let name): name
            case .index(let index): String(index)
            }
        }
    }

    /// The family of the address.
    public let family: Family
    /// The address's bytes as they lie in memory (network order), the rest zero: kept inline, not
    /// in an array, so copying an address (every target, question and answer holds one) costs no
    /// retain and making one no allocation.
    private let first8: UInt64
    private let last8: UInt64
    /// The address in network byte order: 4 bytes for IPv4, 16 for IPv6.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
    /// The zone, kept inline as the bytes are, so an address holds no reference to count.
    private let zone: Zone
    /// The zone of an IPv6 address, if one was given.
    public var scope: Scope? { zone.scope }

    /// Parses an address as `inet_pton` does, with an optional `%scope` after an IPv6 address.
    ///
    /// - Parameter string: "192.0.2.1", "2001:db8::1", "fe80::1%eth0", "fe80::1%3", "0.0.0.0" or "::".
    /// - Throws: `ReachabilityError.invalidAddress` naming what did not parse.
    public init(_ string: String) throws(ReachabilityError) {
        if string.isEmpty {
            throw .invalidAddress(string, reason: "the string is empty")
        }
        if string.utf8.contains(0) {
            throw .invalidAddress(ReachabilityError.printable(string), reason: "it contains a NUL byte")
        }
        var text = Substring(string)
        var scope: Scope?
        if let percent = string.firstIndex(of: "%") {
            let zone = string[string.index(after: percent)...]
            text = string[..<percent]
            guard !zone.isEmpty else {
                throw .invalidAddress(string, reason: "the scope after '%' is empty")
            }
            guard zone.utf8.count < 16 else {  // IFNAMSIZ, with its NUL
                throw .invalidAddress(string, reason: "the scope '\(zone)' is longer than an interface name can be (15 bytes)")
            }
            if let index = Int(zone), index > 0 {
                scope = .index(index)
            } else if zone.allSatisfy({ !$0.isWhitespace && $0 != "/" }) {
                scope = .name(String(zone))
            } else {
                throw .invalidAddress(string, reason: "the scope '\(zone)' is not an interface name or index")
            }
        }
        if let bytes = Self.parse(text, family: AF_INET) {
            guard scope == nil else {
                throw .invalidAddress(string, reason: "an IPv4 address takes no '%scope'")
            }
            self.init(family: .ipv4, bytes: bytes, scope: nil)
        } else if let bytes = Self.parse(text, family: AF_INET6) {
            self.init(family: .ipv6, bytes: bytes, scope: scope)
        } else {
            throw .invalidAddress(string, reason: "it is neither an IPv4 nor an IPv6 address")
        }
    }

    /// Makes an address from its bytes in network order.
    ///
    /// - Precondition: `bytes.count` is 4 for IPv4 and 16 for IPv6.
    package init(family: Family, bytes: [UInt8], scope: Scope? = nil) {
        self = bytes.withUnsafeBytes { IPAddress(family: family, raw: $0, scope: scope) }
    }

    /// Makes an address from its bytes in network order, without an array.
    ///
    /// - Precondition: `raw.count` is 4 for IPv4 and 16 for IPv6.
    package init(family: Family, raw: UnsafeRawBufferPointer, scope: Scope? = nil) {
        precondition(raw.count == family.byteCount, "address bytes do not match the family")
        var words: (UInt64, UInt64) = (0, 0)
        Swift.withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: raw) }
        self.family = family
        (first8, last8) = words
        zone = Zone(scope)
    }

    /// Calls `body` with the address's bytes in network order (4 or 16 of them).
    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        var words = (first8, last8)
        return try Swift.withUnsafeBytes(of: &words) { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(family.byteCount))) }
    }

    /// Three words for every field `==` compares: every question, answer and verdict table of a
    /// turn is keyed by addresses, and the derived hash fed the hasher six times.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(first8)
        hasher.combine(last8)
        hasher.combine(zone.word ^ (family == .ipv4 ? 0 : 1 << 63))
    }

    /// Whether the two addresses have the same family and bytes (their scopes aside).
    package func sameBytes(as other: IPAddress) -> Bool {
        family == other.family && first8 == other.first8 && last8 == other.last8
    }

    /// Reads a `sockaddr_in` or `sockaddr_in6`; a non-zero `sin6_scope_id` becomes the scope.
    ///
    /// - Parameters:
    ///   - address: the socket address; its `sa_family` decides how much of it is read.
    ///   - length: the length of the storage behind `address`, if known; checked against the family's size.
    /// - Throws: `ReachabilityError.invalidSocketAddress` for another family or a too short length.
    public init(sockaddr address: UnsafePointer<sockaddr>, length: Int? = nil) throws(ReachabilityError) {
        let family = Int32(address.pointee.sa_family)
        switch family {
        case AF_INET:
            if let length, length < MemoryLayout<sockaddr_in>.size {
                throw .invalidSocketAddress(reason: "length \(length) is shorter than sockaddr_in (\(MemoryLayout<sockaddr_in>.size))")
            }
            let sin = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            self = Swift.withUnsafeBytes(of: sin.sin_addr) { IPAddress(family: .ipv4, raw: $0) }
        case AF_INET6:
            if let length, length < MemoryLayout<sockaddr_in6>.size {
                throw .invalidSocketAddress(reason: "length \(length) is shorter than sockaddr_in6 (\(MemoryLayout<sockaddr_in6>.size))")
            }
            let sin6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            let scope: Scope? = sin6.sin6_scope_id == 0 ? nil : .index(Int(sin6.sin6_scope_id))
            self = Swift.withUnsafeBytes(of: sin6.sin6_addr) { IPAddress(family: .ipv6, raw: $0, scope: scope) }
        default:
            throw .invalidSocketAddress(reason: "family \(family) is neither AF_INET (\(AF_INET)) nor AF_INET6 (\(AF_INET6))")
        }
    }

    /// Whether this is `0.0.0.0` or `::`: the zero address, which stands for "the internet over this family".
    public var isUnspecified: Bool { first8 == 0 && last8 == 0 }

    /// The address without its scope, as `inet_ntop` writes it.
    public var addressString: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let text: String? = withUnsafeBytes { raw in
            buffer.withUnsafeMutableBufferPointer { out in
                guard inet_ntop(family.addressFamily, raw.baseAddress, out.baseAddress, socklen_t(out.count)) != nil else { return nil }
                return String(cString: out.baseAddress!)
            }
        }
        return text ?? "?"
    }

    /// The address as it was given: `fe80::1%eth0` keeps its scope.
    public var description: String {
        if let scope { return "\(addressString)%\(scope)" }
        return addressString
    }

    private static func parse(_ text: Substring, family: Int32) -> [UInt8]? {
        var storage = [UInt8](repeating: 0, count: 16)
        let ok = String(text).withCString { cString in
            storage.withUnsafeMutableBytes { inet_pton(family, cString, $0.baseAddress) == 1 }
        }
        guard ok else { return nil }
        return Array(storage.prefix(family == AF_INET ? 4 : 16))
    }
}

/// An address's zone, inline: none, an interface index, or an interface name of at most 15
/// bytes (`IFNAMSIZ` less its NUL; the parser refuses longer ones), zero-padded.
private struct Zone: Sendable, Hashable {
    /// 0: none; 1: an index, in `first`; 2: a name, its bytes in `first` and `second`.
    private var kind: UInt8 = 0
    private var first: UInt64 = 0
    private var second: UInt64 = 0

    init(_ scope: IPAddress.Scope?) {
        switch scope {
        case nil:
            break
        case .index(let index)?:
            kind = 1
            first = UInt64(bitPattern: Int64(index))
        case .name(var name)?:
            kind = 2
            var words: (UInt64, UInt64) = (0, 0)
            name.withUTF8 { utf8 in
                precondition(utf8.count < MemoryLayout.size(ofValue: words), "an interface name is at most 15 bytes")
                Swift.withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(utf8)) }
            }
            (first, second) = words
        }
    }

    /// The zone folded into one word for hashing (equal zones, equal words).
    var word: UInt64 { first ^ (second &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(kind) << 56 }

    var scope: IPAddress.Scope? {
        switch kind {
        case 1:
            return .index(Int(Int64(bitPattern: first)))
        case 2:
            let words = (first, second)
            return .name(Swift.withUnsafeBytes(of: words) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        default:
            return nil
        }
    }
}
