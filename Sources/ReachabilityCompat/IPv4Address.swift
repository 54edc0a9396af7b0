import Foundation

// Network framework's `IPv4Address` and `IPv6Address`, as far as a path's gateways and endpoints
// need them. Apple's `protocol IPAddress`, which both adopt there, is left out on purpose:
// NetworkReachability's `struct IPAddress` holds that name, so a file that imports both modules
// means ours by `IPAddress`, unambiguously; the members Apple's protocol requires are on each
// struct.

/// `IPv4Address`: an IPv4 address, with Apple's `rawValue`, `interface`, `isLoopback`,
/// `isLinkLocal`, `isMulticast` and constants.
public struct IPv4Address: Hashable, CustomDebugStringConvertible, Sendable {
    /// NetworkReachability's value this one stands for (not an Apple member).
    public let address: IPAddress
    /// The interface the address is scoped to; nil for a path's gateways.
    public let interface: NWInterface?

    /// Wraps NetworkReachability's address, if it is an IPv4 one (not an Apple initialiser).
    public init?(_ address: IPAddress, _ interface: NWInterface? = nil) {
        guard address.family == .ipv4 else { return nil }
        self.address = address
        self.interface = interface
    }

    /// Parses dotted-quad text, as `inet_pton`; nil for anything else (Apple's `init?(_:)`).
    public init?(_ string: String) {
        guard let address = try? IPAddress(string), address.family == .ipv4 else { return nil }
        self.init(address)
    }

    /// The address from its 4 bytes in network order; nil for another length.
    public init?(_ rawValue: Data, _ interface: NWInterface? = nil) {
        guard rawValue.count == 4 else { return nil }
        self.init(IPAddress(family: .ipv4, bytes: Array(rawValue)), interface)
    }

    /// The 4 bytes, in network order.
    public var rawValue: Data { Data(address.bytes) }
    /// 127.0.0.0/8.
    public var isLoopback: Bool { address.bytes[0] == 127 }
    /// 169.254.0.0/16.
    public var isLinkLocal: Bool { address.bytes[0] == 169 && address.bytes[1] == 254 }
    /// 224.0.0.0/4.
    public var isMulticast: Bool { address.bytes[0] & 0xF0 == 0xE0 }
    /// `192.0.2.1`.
    public var debugDescription: String { address.addressString }

    /// 0.0.0.0.
    public static let any = IPv4Address(IPAddress(family: .ipv4, bytes: [0, 0, 0, 0]))!
    /// 255.255.255.255.
    public static let broadcast = IPv4Address(IPAddress(family: .ipv4, bytes: [255, 255, 255, 255]))!
    /// 127.0.0.1.
    public static let loopback = IPv4Address(IPAddress(family: .ipv4, bytes: [127, 0, 0, 1]))!
    /// 224.0.0.1.
    public static let allHostsGroup = IPv4Address(IPAddress(family: .ipv4, bytes: [224, 0, 0, 1]))!
    /// 224.0.0.2.
    public static let allRoutersGroup = IPv4Address(IPAddress(family: .ipv4, bytes: [224, 0, 0, 2]))!
    /// 224.0.0.251.
    public static let mdnsGroup = IPv4Address(IPAddress(family: .ipv4, bytes: [224, 0, 0, 251]))!
}

/// `IPv6Address`: an IPv6 address, with Apple's `rawValue`, `interface`, `isAny`, `isLoopback`,
/// `isLinkLocal`, `isMulticast`, `isIPv4Mapped`, `asIPv4` and constants.
public struct IPv6Address: Hashable, CustomDebugStringConvertible, Sendable {
    /// NetworkReachability's value this one stands for, with its zone (not an Apple member).
    public let address: IPAddress
    /// The interface the address is scoped to, when it was given as one.
    public let interface: NWInterface?

    /// Wraps NetworkReachability's address, if it is an IPv6 one (not an Apple initialiser).
    public init?(_ address: IPAddress, _ interface: NWInterface? = nil) {
        guard address.family == .ipv6 else { return nil }
        self.address = address
        self.interface = interface
    }

    /// Parses IPv6 text, with an optional `%zone`; nil for anything else (Apple's `init?(_:)`).
    public init?(_ string: String) {
        guard let address = try? IPAddress(string), address.family == .ipv6 else { return nil }
        self.init(address)
    }

    /// The address from its 16 bytes in network order; nil for another length.
    public init?(_ rawValue: Data, _ interface: NWInterface? = nil) {
        guard rawValue.count == 16 else { return nil }
        self.init(IPAddress(family: .ipv6, bytes: Array(rawValue)), interface)
    }

    /// The 16 bytes, in network order.
    public var rawValue: Data { Data(address.bytes) }
    /// `::`.
    public var isAny: Bool { address.isUnspecified }
    /// `::1`.
    public var isLoopback: Bool { address.bytes == Array(repeating: 0, count: 15) + [1] }
    /// fe80::/10.
    public var isLinkLocal: Bool { address.bytes[0] == 0xFE && address.bytes[1] & 0xC0 == 0x80 }
    /// ff00::/8.
    public var isMulticast: Bool { address.bytes[0] == 0xFF }
    /// ::ffff:0:0/96.
    public var isIPv4Mapped: Bool { address.bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] }
    /// The IPv4 address of an IPv4-mapped one; nil otherwise.
    public var asIPv4: IPv4Address? {
        isIPv4Mapped ? IPv4Address(IPAddress(family: .ipv4, bytes: Array(address.bytes.suffix(4))), interface) : nil
    }
    /// `2001:db8::1`, with `%zone` when it has one.
    public var debugDescription: String { address.description }

    /// `::`.
    public static let any = IPv6Address(IPAddress(family: .ipv6, bytes: Array(repeating: 0, count: 16)))!
    /// `::1`.
    public static let loopback = IPv6Address(IPAddress(family: .ipv6, bytes: Array(repeating: 0, count: 15) + [1]))!
}
