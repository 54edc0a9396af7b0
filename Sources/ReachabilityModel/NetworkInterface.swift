import ReachabilitySystem
/// A network interface of the monitored namespace, as `NWInterface` describes one.
public struct NetworkInterface: Sendable, Hashable, CustomStringConvertible {
    /// The kind of link, as `NWInterface.InterfaceType` has it.
    public enum InterfaceType: Sendable, Hashable, CaseIterable, CustomStringConvertible {
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

        /// The case name, as `reachability --json` prints it.
        public var description: String {
            switch self {
            case .other: "other"
            case .wifi: "wifi"
            case .cellular: "cellular"
            case .wiredEthernet: "wiredEthernet"
            case .loopback: "loopback"
            }
        }
    }

    /// The interface's name, such as `eth0`.
    public var name: String
    /// The kernel's interface index.
    public var index: Int
    /// What kind of link it is.
    public var type: InterfaceType
    /// Traffic over it may cost money: cellular, Bluetooth PAN, tethering to a phone, or named by `InterfacePolicy`.
    public var isExpensive: Bool
    /// Named as constrained (or ultra-constrained) by `InterfacePolicy`.
    public var isConstrained: Bool
    /// Named as ultra-constrained by `InterfacePolicy` (Apple's `isUltraConstrained`; Linux has no such mode).
    public var isUltraConstrained: Bool = false
    /// How well its link layer carries traffic now, measured from the link's figures (carrier,
    /// speed and duplex, a Wi-Fi signal); `unknown` without carrier or figures. See ``LinkQuality``.
    public var linkQuality: LinkQuality = .unknown
    /// The link's kind as the kernel names it (IFLA_INFO_KIND): `wireguard`, `tun` (tun and tap),
    /// `ppp`, `vxlan`, `veth`, `bridge`, ...; nil for a physical device and for loopback.
    /// `isTunnel` says whether it is a tunnel.
    public var kind: String?

    /// Makes an interface value.
    public init(name: String, index: Int, type: InterfaceType, isExpensive: Bool = false, isConstrained: Bool = false,
                kind: String? = nil, isUltraConstrained: Bool = false, linkQuality: LinkQuality = .unknown) {
        self.isUltraConstrained = isUltraConstrained
        self.linkQuality = linkQuality
        self.name = name
        self.index = index
        self.type = type
        self.isExpensive = isExpensive
        self.isConstrained = isConstrained
        self.kind = kind
    }

    /// `eth0(2, wiredEthernet)`, with `, expensive` and `, constrained` when they apply.
    public var description: String {
        "\(name)(\(index), \(type)\(isExpensive ? ", expensive" : "")\(isConstrained ? ", constrained" : ""))"
    }
}
