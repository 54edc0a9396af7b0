import NetworkReachability

/// One interface as `reachability interfaces` prints it.
///
/// The fields that the library cannot give yet are optional: nil prints as `?` in the table and
/// `null` in JSON (see `InterfaceSource`).
struct InterfaceRow: Sendable, Hashable {
    /// The kernel's interface index.
    var index: Int
    /// The interface's name, such as `eth0`.
    var name: String
    /// How the library classifies it (`wiredEthernet`, `wifi`, `cellular`, `loopback`, `other`).
    var type: NetworkInterface.InterfaceType
    /// The kernel's `IFF_*` flags (`ifi_flags`, with `IFF_LOWER_UP` and `IFF_DORMANT`); nil when unknown.
    var flags: UInt32?
    /// RFC 2863 operational state, spelled as `ip link` does (`UP`, `DOWN`, `UNKNOWN`, `DORMANT`,
    /// `LOWERLAYERDOWN`, `NOTPRESENT`, `TESTING`); nil when unknown.
    var operationalState: String?
    /// Whether it has carrier, as the library's semantics define it; nil when unknown.
    var hasCarrier: Bool?
    /// The addresses it holds, as `ADDRESS/PREFIX`; nil when unknown.
    var addresses: [String]?
    /// Traffic over it may cost money.
    var isExpensive: Bool
    /// Named as constrained by the library's `InterfacePolicy`.
    var isConstrained: Bool
}

/// Where `reachability interfaces` gets its rows: the one seam between the command and the library.
protocol InterfaceSource: Sendable {
    /// The interfaces of `namespace`, by index.
    ///
    /// - Throws: `ReachabilityError` when the namespace cannot be watched.
    func interfaces(in namespace: NetworkNamespace) throws -> [InterfaceRow]

    /// What this source cannot tell, as one line for standard error; nil when it tells everything.
    var limitation: String? { get }
}

/// The source the command uses.
///
/// When the library has `PathMonitor.interfaces(namespace:)` (see `LibraryInterfaceSource` below),
/// this is the one line to change: `= LibraryInterfaceSource()`.
let interfaceSource: any InterfaceSource = AvailableInterfacesSource()

/// Until the library can list interfaces: the general path's `availableInterfaces`.
///
/// That list holds only the interfaces a path can use (up, with carrier, holding an address; `lo`
/// only when the path uses it), and for each only the name, index, type, and whether it is
/// expensive or constrained. Flags, operational state, carrier and addresses are unknown here.
struct AvailableInterfacesSource: InterfaceSource {
    func interfaces(in namespace: NetworkNamespace) throws -> [InterfaceRow] {
        let monitor = try TargetSpecification.general.makeMonitor(namespace: namespace)
        return monitor.currentPath.availableInterfaces
            .sorted { $0.index < $1.index }
            .map { interface in
                InterfaceRow(
                    index: interface.index, name: interface.name, type: interface.type,
                    flags: nil, operationalState: nil, hasCarrier: nil, addresses: nil,
                    isExpensive: interface.isExpensive, isConstrained: interface.isConstrained
                )
            }
    }

    var limitation: String? {
        """
        only usable interfaces (up, with carrier and an address) are listed, and flags, operstate, \
        carrier and addresses show '?': the library cannot list interfaces yet
        """
    }
}

// The library API this command needs (proposed in issue 6's report):
//
//     extension PathMonitor {
//         public static func interfaces(namespace: NetworkNamespace = .current) throws(ReachabilityError) -> [InterfaceInfo]
//     }
//     public struct InterfaceInfo: Sendable, Hashable {
//         public var interface: NetworkInterface              // name, index, type, isExpensive, isConstrained
//         public var flags: InterfaceFlags                    // OptionSet over ifi_flags (IFF_*), rawValue UInt32
//         public var operationalState: OperationalState       // IF_OPER_*: unknown, notPresent, down, lowerLayerDown, testing, dormant, up
//         public var hasCarrier: Bool                         // carrier as semantics.md defines it
//         public var addresses: [(address: IPAddress, prefixLength: Int)]  // or a small struct
//     }
//
// Once it exists, uncomment this source and point `interfaceSource` above at it.
//
// struct LibraryInterfaceSource: InterfaceSource {
//     func interfaces(in namespace: NetworkNamespace) throws -> [InterfaceRow] {
//         try PathMonitor.interfaces(namespace: namespace).map { info in
//             InterfaceRow(
//                 index: info.interface.index, name: info.interface.name, type: info.interface.type,
//                 flags: info.flags.rawValue, operationalState: String(describing: info.operationalState).uppercased(),
//                 hasCarrier: info.hasCarrier,
//                 addresses: info.addresses.map { "\($0.address.addressString)/\($0.prefixLength)" },
//                 isExpensive: info.interface.isExpensive, isConstrained: info.interface.isConstrained
//             )
//         }
//     }
//
//     var limitation: String? { nil }
// }
