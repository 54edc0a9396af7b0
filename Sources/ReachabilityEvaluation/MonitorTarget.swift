import ReachabilityModel
/// Which interfaces a general-path monitor may use: `NWPathMonitor(requiredInterfaceType:)` and
/// `NWPathMonitor(prohibitedInterfaceTypes:)`.
package struct InterfaceFilter: Sendable, Hashable {
    package var required: NetworkInterface.InterfaceType?
    package var prohibited: Set<NetworkInterface.InterfaceType> = []

    package static let none = InterfaceFilter()

    package var isEmpty: Bool { required == nil && prohibited.isEmpty }

    package func allows(_ type: NetworkInterface.InterfaceType) -> Bool {
        if let required, type != required { return false }
        return !prohibited.contains(type)
    }

    package init(required: NetworkInterface.InterfaceType? = nil, prohibited: Set<NetworkInterface.InterfaceType> = []) {
        self.required = required
        self.prohibited = prohibited
    }
}

/// What a monitor watches.
package enum MonitorTarget: Sendable, Hashable, CustomStringConvertible {
    /// One address; the zero address (`0.0.0.0`, `::`) stands for the default route of its family.
    case address(IPAddress)
    /// `ip route get REMOTE from LOCAL`; either end may be missing.
    case pair(local: IPAddress?, remote: IPAddress?)
    /// `NWPathMonitor()`: the zero address of either family, the better one wins; with a filter,
    /// as if only the allowed interfaces existed.
    case general(InterfaceFilter)
    /// A validated host name; every address it resolves to is evaluated, the best one wins.
    case host(String)

    /// Whether it is a host name: its addresses' verdicts are ranked in the resolver's order,
    /// not by route metric.
    package var isHostName: Bool {
        if case .host = self { return true }
        return false
    }

    /// The target as the command prints it: the address as given, `*` for the general path.
    package var description: String {
        switch self {
        case .address(let address): address.description
        case .pair(let local, let remote): "\(local?.description ?? "*")->\(remote?.description ?? "*")"
        case .general: "*"
        case .host(let name): name
        }
    }
}
