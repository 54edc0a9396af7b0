/// A link as the evaluator needs it: copied out of libnl's link cache by the Netlink layer.
struct LinkState: Sendable, Hashable {
    /// Kernel `IFF_*` flags, including `IFF_LOWER_UP` (1 << 16) and `IFF_DORMANT` (1 << 17).
    struct Flags: OptionSet, Sendable, Hashable {
        var rawValue: UInt32
        static let up = Flags(rawValue: 0x1)
        static let loopback = Flags(rawValue: 0x8)
        static let pointToPoint = Flags(rawValue: 0x10)
        static let running = Flags(rawValue: 0x40)
        static let lowerUp = Flags(rawValue: 1 << 16)
        static let dormant = Flags(rawValue: 1 << 17)
    }

    /// RFC 2863 operational state, as `IF_OPER_*`.
    enum OperationalState: UInt8, Sendable, Hashable {
        case unknown = 0, notPresent = 1, down = 2, lowerLayerDown = 3, testing = 4, dormant = 5, up = 6

        var name: String {
            switch self {
            case .unknown: "unknown"
            case .notPresent: "notpresent"
            case .down: "down"
            case .lowerLayerDown: "lowerlayerdown"
            case .testing: "testing"
            case .dormant: "dormant"
            case .up: "up"
            }
        }
    }

    var index: Int
    var name: String
    var flags: Flags
    var operationalState: OperationalState
    /// `ARPHRD_*` (1 Ethernet, 772 loopback, 512 PPP, 519 RAWIP, 65534 none).
    var hardwareType: UInt32
    /// `IFLA_INFO_KIND`: "veth", "bridge", "tun", "wireguard", ... or nil for a physical device.
    var kind: String?
    /// What sysfs or ioctls tell of the device (filled by the engine, cached per link).
    var traits = LinkTraits()

    /// Administratively up (`ip link set up`).
    var isUp: Bool { flags.contains(.up) }

    /// Carrier, as semantics.md defines it: `IFF_LOWER_UP`, and an operstate that is not down or
    /// lower-layer-down. `lo` and vxlan report operstate unknown while running, which counts as carrier.
    var hasCarrier: Bool {
        flags.contains(.lowerUp) && operationalState != .down && operationalState != .lowerLayerDown
            && operationalState != .notPresent
    }

    /// Waiting for authentication or association (802.1X, Wi-Fi): operstate dormant.
    var isDormant: Bool { operationalState == .dormant }

    var isPointToPoint: Bool { flags.contains(.pointToPoint) }
    var isLoopback: Bool { flags.contains(.loopback) }
}

/// Facts about a device that rtnetlink does not carry: udev's DEVTYPE, 802.11-ness, the driver.
struct LinkTraits: Sendable, Hashable {
    /// `DEVTYPE=` of the device's `uevent`: "wlan", "wwan", "bluetooth", "bridge", "vlan", ...
    var deviceType: String?
    /// `phy80211` or `wireless/` in sysfs, or SIOCGIWNAME answered.
    var isWireless = false
    /// The kernel driver: "qmi_wwan", "cdc_mbim", "rndis_host", "ipheth", "veth", ...
    var driver: String?
    /// The USB product string of the device, when sysfs has one (to tell a phone's cdc_ether from a dock's).
    var usbProduct: String?
    /// Named by the configuration.
    var isConfiguredExpensive = false
    var isConfiguredConstrained = false
}

/// An address that an interface holds.
struct InterfaceAddress: Sendable, Hashable {
    var interfaceIndex: Int
    var address: IPAddress
    var prefixLength: Int
    /// The kernel's `ifa_scope`: 0 universe, 200 site, 253 link (IPv6 `fe80::/10`), 254 host.
    var scope: UInt8 = 0

    /// `RT_SCOPE_LINK`: addresses at or above it do not reach past their own link.
    static let linkScope: UInt8 = 253

    /// Whether the address can carry traffic beyond its own link (scope universe or site).
    var reachesBeyondLink: Bool { scope < Self.linkScope }
}

/// The kernel's link and address state at one moment. Routes are never copied: the route of
/// each target is asked of the kernel (`RouteAnswer`).
struct KernelSnapshot: Sendable, Equatable {
    var links: [Int: LinkState] = [:]
    var addresses: [InterfaceAddress] = []

    func link(named name: String) -> LinkState? {
        links.values.first { $0.name == name }
    }

    /// Whether some interface holds this address (scope ignored).
    func owns(_ address: IPAddress) -> Bool {
        addresses.contains { $0.address.family == address.family && $0.address.bytes == address.bytes }
    }

    /// Indexes of the interfaces that hold at least one address reaching beyond their link:
    /// a container's host-side veth, with only its IPv6 link-local address, is not among them.
    var indexesWithRoutableAddress: Set<Int> {
        var indexes = Set<Int>()
        for address in addresses where address.reachesBeyondLink { indexes.insert(address.interfaceIndex) }
        return indexes
    }
}

/// The kernel's `rtm_type` of a route.
enum RouteType: Sendable, Hashable {
    case unicast, local, broadcast, anycast, multicast, blackhole, unreachable, prohibit, `throw`, other(UInt8)

    init(rtnType: UInt8) {
        switch rtnType {
        case 1: self = .unicast
        case 2: self = .local
        case 3: self = .broadcast
        case 4: self = .anycast
        case 5: self = .multicast
        case 6: self = .blackhole
        case 7: self = .unreachable
        case 8: self = .prohibit
        case 9: self = .throw
        default: self = .other(rtnType)
        }
    }
}

/// One route as the kernel answered an RTM_GETROUTE request for a destination.
struct RouteEntry: Sendable, Hashable {
    var type: RouteType
    var table: UInt32
    /// The prefix length of the matching FIB entry (only meaningful for a FIB-match request).
    var prefixLength: Int
    var outputInterface: Int?
    var gateways: [IPAddress]
    var preferredSource: IPAddress?
    /// `RTNH_F_LINKDOWN` on the next hop (only reported for FIB-match requests).
    var isLinkDown: Bool
    /// The route's metric (`RTA_PRIORITY`); lower is preferred.
    var metric: UInt32 = 0
}

/// What the kernel answered for a destination: a route, or the errno it refused with.
///
/// The errno says which kind of route stopped the packet: ENETUNREACH no route (or `throw`),
/// EHOSTUNREACH `unreachable`, EINVAL `blackhole`, EACCES `prohibit`.
enum RouteAnswer: Sendable, Hashable {
    case route(RouteEntry)
    case failure(errno: Int32)
}
