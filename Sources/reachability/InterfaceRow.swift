import NetworkReachabilityCore

/// One interface as `reachability interfaces` prints it: the library's `InterfaceStatus`, with the
/// operational state spelled as `ip link` does (`UP`, `DOWN`, `UNKNOWN`, `LOWERLAYERDOWN`, ...).
struct InterfaceRow: Sendable, Hashable {
    /// The kernel's interface index.
    var index: Int
    /// The interface's name, such as `eth0`.
    var name: String
    /// How the library classifies it (`wiredEthernet`, `wifi`, `cellular`, `loopback`, `other`).
    var type: NetworkInterface.InterfaceType
    /// The names of the set `IFF_*` flags, in `ip link`'s order.
    var flags: [String]
    /// RFC 2863 operational state, upper case as `ip link` prints it.
    var operationalState: String
    /// Whether it has carrier, as the library's semantics define it.
    var hasCarrier: Bool
    /// The addresses it holds, as `ADDRESS/PREFIX`.
    var addresses: [String]
    /// Traffic over it may cost money.
    var isExpensive: Bool
    /// Named as constrained by the library's `InterfacePolicy`.
    var isConstrained: Bool
    /// How well its link layer carries traffic (`unknown`, `minimal`, `moderate`, `good`).
    var linkQuality: LinkQuality

    init(_ status: InterfaceStatus) {
        index = status.interface.index
        name = status.interface.name
        type = status.interface.type
        flags = status.flags
        operationalState = status.operationalState.uppercased()
        hasCarrier = status.hasCarrier
        addresses = status.addresses
        isExpensive = status.interface.isExpensive
        isConstrained = status.interface.isConstrained
        linkQuality = status.interface.linkQuality
    }

    /// The interfaces of `namespace`, by index.
    ///
    /// - Throws: `ReachabilityError` when the namespace cannot be watched.
    static func all(in namespace: NetworkNamespace) throws -> [InterfaceRow] {
        try NetworkInterface.statuses(in: namespace).map(InterfaceRow.init)
    }
}
