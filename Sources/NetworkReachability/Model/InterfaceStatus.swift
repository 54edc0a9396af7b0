/// Everything the kernel says of one interface: what `reachability interfaces` lists.
public struct InterfaceStatus: Sendable, Hashable {
    /// Name, index, type, and whether it is expensive or constrained.
    public var interface: NetworkInterface
    /// The set `IFF_*` flags by their kernel names: `UP`, `RUNNING`, `LOWER_UP`, `DORMANT`,
    /// `LOOPBACK`, `POINTOPOINT`, in that order.
    public var flags: [String]
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
    public init(interface: NetworkInterface, flags: [String], operationalState: String, hasCarrier: Bool,
                kind: String?, addresses: [String]) {
        self.interface = interface
        self.flags = flags
        self.operationalState = operationalState
        self.hasCarrier = hasCarrier
        self.kind = kind
        self.addresses = addresses
    }
}

extension InterfaceStatus {
    init(link: LinkState, addresses: [InterfaceAddress]) {
        let named: [(LinkState.Flags, String)] = [
            (.up, "UP"), (.running, "RUNNING"), (.lowerUp, "LOWER_UP"), (.dormant, "DORMANT"),
            (.loopback, "LOOPBACK"), (.pointToPoint, "POINTOPOINT"),
        ]
        self.init(
            interface: InterfaceClassifier.interface(for: link),
            flags: named.filter { link.flags.contains($0.0) }.map(\.1),
            operationalState: link.operationalState.name,
            hasCarrier: link.hasCarrier,
            kind: link.kind,
            addresses: addresses.filter { $0.interfaceIndex == link.index }.map { "\($0.address.addressString)/\($0.prefixLength)" }
        )
    }
}

extension NetworkInterface {
    /// Every interface of a namespace with its kernel state, by index.
    ///
    /// - Parameter namespace: default: the process's own.
    /// - Throws: a namespace error (missing, or no right to enter it).
    public static func statuses(in namespace: NetworkNamespace = .current) throws(ReachabilityError) -> [InterfaceStatus] {
        try EngineRegistry.engine(for: namespace).interfaceStatuses()
    }
}
