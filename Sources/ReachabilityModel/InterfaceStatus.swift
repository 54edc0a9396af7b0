import ReachabilitySystem
/// Everything the kernel says of one interface: what `reachability interfaces` lists.
public struct InterfaceStatus: Sendable, Hashable {
    /// Name, index, type, and whether it is expensive or constrained.
    public var interface: NetworkInterface
    /// The kernel's `ifi_flags` (`IFF_*`, with `IFF_LOWER_UP` 1 << 16 and `IFF_DORMANT` 1 << 17).
    public var flagsRaw: UInt32
    /// The names of the set flags, in the order `ip link` prints them, with `RUNNING` after `UP`.
    public var flags: [String] { Self.flagNames(of: flagsRaw) }
    /// RFC 2863 operational state as `ip link` prints it, lower case: `up`, `down`, `lowerlayerdown`,
    /// `dormant`, `testing`, `notpresent`, `unknown`.
    public var operationalState: String
    /// `IFF_LOWER_UP`, and an operstate that is not down: the rule the flags use.
    public var hasCarrier: Bool
    /// The link kind (`IFLA_INFO_KIND`: veth, bridge, tun, ...), nil for a physical device.
    public var kind: String?
    /// The addresses it holds, as `ADDRESS/PREFIX`.
    public var addresses: [String]

    /// Makes a value; the library makes them.
    public init(interface: NetworkInterface, flagsRaw: UInt32, operationalState: String, hasCarrier: Bool,
                kind: String?, addresses: [String]) {
        self.interface = interface
        self.flagsRaw = flagsRaw
        self.operationalState = operationalState
        self.hasCarrier = hasCarrier
        self.kind = kind
        self.addresses = addresses
    }
}

extension InterfaceStatus {
    /// Each `IFF_*` bit and its name, in the order `ip link` prints them (iproute2's
    /// `print_link_flags`), with `RUNNING`, which `ip` leaves out, after `UP`.
    public static let flagNames: [(bit: UInt32, name: String)] = [
        (0x8, "LOOPBACK"), (0x2, "BROADCAST"), (0x10, "POINTOPOINT"), (0x1000, "MULTICAST"), (0x80, "NOARP"),
        (0x200, "ALLMULTI"), (0x100, "PROMISC"), (0x400, "MASTER"), (0x800, "SLAVE"), (0x4, "DEBUG"),
        (0x8000, "DYNAMIC"), (0x4000, "AUTOMEDIA"), (0x2000, "PORTSEL"), (0x20, "NOTRAILERS"), (0x1, "UP"),
        (0x40, "RUNNING"), (0x10000, "LOWER_UP"), (0x20000, "DORMANT"), (0x40000, "ECHO"),
    ]

    /// The names of the flags set in `flags`, in `ip`'s order; bits without a name are left out.
    public static func flagNames(of flags: UInt32) -> [String] {
        flagNames.filter { flags & $0.bit != 0 }.map(\.name)
    }
}
