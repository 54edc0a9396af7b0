import Foundation

// Network framework's `NWEndpoint`, as far as a path's gateways and endpoints need it.

/// `NWEndpoint`: where a connection goes. A path's `gateways` are `.hostPort` endpoints with an
/// IP address and port 0, as Apple's: `if case let .hostPort(.ipv4(address), _) = gateway`.
public enum NWEndpoint: Hashable, CustomDebugStringConvertible, Sendable {
    /// A host (name or address) and a port.
    case hostPort(host: NWEndpoint.Host, port: NWEndpoint.Port)
    /// A DNS-SD service; never made by this library.
    case service(name: String, type: String, domain: String, interface: NWInterface?)
    /// A Unix domain socket's path; never made by this library.
    case unix(path: String)
    /// A URL; never made by this library.
    case url(URL)

    /// `NWEndpoint.Host`: a name or an address.
    public enum Host: Hashable, CustomDebugStringConvertible, ExpressibleByStringLiteral, Sendable {
        /// A host name, and the interface it is scoped to.
        case name(String, NWInterface?)
        /// An IPv4 address.
        case ipv4(IPv4Address)
        /// An IPv6 address.
        case ipv6(IPv6Address)

        /// An address when the text is one, else a name (Apple's `init(_:)`).
        public init(_ string: String) {
            if let address = IPv4Address(string) {
                self = .ipv4(address)
            } else if let address = IPv6Address(string) {
                self = .ipv6(address)
            } else {
                self = .name(string, nil)
            }
        }

        /// As `init(_:)`.
        public init(stringLiteral value: String) {
            self.init(value)
        }

        /// NetworkReachability's address as a host (not an Apple initialiser).
        public init(_ address: IPAddress) {
            if let address = IPv4Address(address) {
                self = .ipv4(address)
            } else {
                self = .ipv6(IPv6Address(address)!)  // an IPAddress is one of the two families
            }
        }

        /// The interface the host is scoped to, if any.
        public var interface: NWInterface? {
            switch self {
            case .name(_, let interface): interface
            case .ipv4(let address): address.interface
            case .ipv6(let address): address.interface
            }
        }

        /// The name or the address's text.
        public var debugDescription: String {
            switch self {
            case .name(let name, _): name
            case .ipv4(let address): address.debugDescription
            case .ipv6(let address): address.debugDescription
            }
        }
    }

    /// `NWEndpoint.Port`: a port number.
    public struct Port: Hashable, CustomDebugStringConvertible, ExpressibleByIntegerLiteral, RawRepresentable, Sendable {
        /// The number.
        public let rawValue: UInt16

        /// The port `rawValue`.
        public init?(rawValue: UInt16) {
            self.rawValue = rawValue
        }

        /// The port `value`.
        public init(integerLiteral value: UInt16) {
            self.rawValue = value
        }

        /// Parses a decimal port number; nil for anything else.
        public init?(_ string: String) {
            guard let value = UInt16(string) else { return nil }
            self.rawValue = value
        }

        /// The number, in decimal.
        public var debugDescription: String { String(rawValue) }

        /// Port 0: any port (that of a path's gateways).
        public static let any: Port = 0
        /// 22.
        public static let ssh: Port = 22
        /// 25.
        public static let smtp: Port = 25
        /// 80.
        public static let http: Port = 80
        /// 110.
        public static let pop: Port = 110
        /// 993.
        public static let imaps: Port = 993
        /// 443.
        public static let https: Port = 443
        /// 1080.
        public static let socks: Port = 1080
    }

    /// The interface the endpoint is scoped to, if any.
    public var interface: NWInterface? {
        switch self {
        case .hostPort(let host, _): host.interface
        case .service(_, _, _, let interface): interface
        case .unix, .url: nil
        }
    }

    /// `10.0.0.1:0`, `[2001:db8::1]:443`, `name.type.domain`, a path or a URL.
    public var debugDescription: String {
        switch self {
        case .hostPort(let host, let port):
            if case .ipv6 = host { return "[\(host.debugDescription)]:\(port.debugDescription)" }
            return "\(host.debugDescription):\(port.debugDescription)"
        case .service(let name, let type, let domain, _): return "\(name).\(type).\(domain)"
        case .unix(let path): return path
        case .url(let url): return url.absoluteString
        }
    }
}
