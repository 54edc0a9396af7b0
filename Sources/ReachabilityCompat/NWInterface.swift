// Network framework's `NWInterface`, in Apple's shape, over NetworkReachability's `NetworkInterface`.

/// `NWInterface`: a network interface of the monitored namespace, with Apple's members `name`,
/// `index`, `type` and `debugDescription`.
///
/// A thin value over ``NetworkInterface`` (``networkInterface``), which also holds what Apple's
/// does not: the link kind, the cost and the link quality.
public struct NWInterface: Hashable, CustomDebugStringConvertible, Sendable {
    /// `NWInterface.InterfaceType`, Apple's cases (without `CustomStringConvertible`, as Apple's,
    /// so a client's own `extension NWInterface.InterfaceType: CustomStringConvertible` builds).
    public enum InterfaceType: Sendable {
        /// Tunnels (tun, WireGuard, ip-in-ip) and anything not listed below.
        case other
        /// An 802.11 device.
        case wifi
        /// A WWAN modem, a RAWIP link, or a modem's PPP link.
        case cellular
        /// Ethernet, including the veth and bridge links of containers.
        case wiredEthernet
        /// The loopback interface.
        case loopback

        /// The same type in NetworkReachability's terms.
        public var interfaceType: NetworkInterface.InterfaceType {
            switch self {
            case .other: .other
            case .wifi: .wifi
            case .cellular: .cellular
            case .wiredEthernet: .wiredEthernet
            case .loopback: .loopback
            }
        }

        /// Apple's type for NetworkReachability's.
        public init(_ type: NetworkInterface.InterfaceType) {
            switch type {
            case .other: self = .other
            case .wifi: self = .wifi
            case .cellular: self = .cellular
            case .wiredEthernet: self = .wiredEthernet
            case .loopback: self = .loopback
            }
        }
    }

    /// NetworkReachability's value this one stands for (not an Apple member).
    public let networkInterface: NetworkInterface

    /// Wraps NetworkReachability's interface (not an Apple initialiser).
    public init(_ networkInterface: NetworkInterface) {
        self.networkInterface = networkInterface
    }

    /// The interface's name, such as `eth0`.
    public var name: String { networkInterface.name }
    /// The kernel's interface index.
    public var index: Int { networkInterface.index }
    /// What kind of link it is (semantics: docs/semantics.md, "Interface types").
    public var type: InterfaceType { InterfaceType(networkInterface.type) }

    /// `eth0`: the name, as Apple's.
    public var debugDescription: String { name }

    /// Equal when name, index and type are, as Apple's: a change of the link's quality or cost
    /// does not make it another interface.
    public static func == (lhs: NWInterface, rhs: NWInterface) -> Bool {
        lhs.name == rhs.name && lhs.index == rhs.index && lhs.type == rhs.type
    }

    /// Hashes what `==` compares: name, index and type.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(index)
        hasher.combine(type)
    }
}
