import ReachabilitySystem
/// A link as the evaluator needs it: copied out of libnl's link cache by the Netlink layer.
package struct LinkState: Sendable, Hashable {
    /// Kernel `IFF_*` flags, including `IFF_LOWER_UP` (1 << 16) and `IFF_DORMANT` (1 << 17).
    package struct Flags: OptionSet, Sendable, Hashable {
        package var rawValue: UInt32
        package init(rawValue: UInt32) { self.rawValue = rawValue }
        package static let up = Flags(rawValue: 0x1)
        package static let loopback = Flags(rawValue: 0x8)
        package static let pointToPoint = Flags(rawValue: 0x10)
        package static let running = Flags(rawValue: 0x40)
        package static let lowerUp = Flags(rawValue: 1 << 16)
        package static let dormant = Flags(rawValue: 1 << 17)
    }

    /// RFC 2863 operational state, as `IF_OPER_*`.
    package enum OperationalState: UInt8, Sendable, Hashable {
        case unknown = 0, notPresent = 1, down = 2, lowerLayerDown = 3, testing = 4, dormant = 5, up = 6

        package var name: String {
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

    package var index: Int
    package var name: String
    package var flags: Flags
    package var operationalState: OperationalState
    /// `ARPHRD_*` (1 Ethernet, 772 loopback, 512 PPP, 519 RAWIP, 65534 none).
    package var hardwareType: UInt32
    /// `IFLA_INFO_KIND`: "veth", "bridge", "tun", "wireguard", ... or nil for a physical device.
    package var kind: String?
    /// What sysfs or ioctls tell of the device (filled by the engine, cached per link).
    package var traits: LinkTraits = LinkTraits()
    /// The captive-portal API URI the link's network announced (RFC 8910), while the link is up with carrier.
    package var captivePortalAPI: String?

    /// Administratively up (`ip link set up`).
    package var isUp: Bool { flags.contains(.up) }

    /// Carrier, as semantics.md defines it: `IFF_LOWER_UP`, and an operstate that is not down or
    /// lower-layer-down. `lo` and vxlan report operstate unknown while running, which counts as carrier.
    package var hasCarrier: Bool {
        flags.contains(.lowerUp) && operationalState != .down && operationalState != .lowerLayerDown
            && operationalState != .notPresent
    }

    /// Waiting for authentication or association (802.1X, Wi-Fi): operstate dormant.
    package var isDormant: Bool { operationalState == .dormant }

    package var isPointToPoint: Bool { flags.contains(.pointToPoint) }
    package var isLoopback: Bool { flags.contains(.loopback) }

    package init(index: Int, name: String, flags: Flags, operationalState: OperationalState, hardwareType: UInt32, kind: String? = nil, traits: LinkTraits = LinkTraits(), captivePortalAPI: String? = nil) {
        self.index = index
        self.name = name
        self.flags = flags
        self.operationalState = operationalState
        self.hardwareType = hardwareType
        self.kind = kind
        self.traits = traits
        self.captivePortalAPI = captivePortalAPI
    }
}
