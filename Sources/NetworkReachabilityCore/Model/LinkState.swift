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
    /// The captive-portal API URI the link's network announced (RFC 8910), while the link is up with carrier.
    var captivePortalAPI: String?

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
