import NetworkReachability

extension NetworkPath {
    /// A satisfied path over `interface` (default: `eth0`, wired), as a test's "online".
    public static func online(via interface: NetworkInterface = .fakeEthernet) -> NetworkPath {
        fake(flags: interface.type == .cellular ? [.reachable, .isWWAN] : [.reachable], interface: interface)
    }

    /// An unsatisfied path, as a test's "offline".
    public static func offline(_ reason: UnsatisfiedReason = .noRoute) -> NetworkPath {
        var path = fake(flags: [])
        path.unsatisfiedReason = reason
        return path
    }

    /// The path a monitor reports with `flags`: satisfied when `reachable` without
    /// `connectionRequired`, `requiresConnection` (reason `linkDown`) with both, else unsatisfied
    /// (reason `noRoute`). A reachable path leaves by `interface` (default: `eth0`, or `wwan0`
    /// when `isWWAN` is set).
    public static func fake(flags: ReachabilityFlags, interface: NetworkInterface? = nil) -> NetworkPath {
        let reachable = flags.contains(.reachable)
        let status: Status = !reachable ? .unsatisfied : flags.contains(.connectionRequired) ? .requiresConnection : .satisfied
        let reason: UnsatisfiedReason? = switch status {
        case .satisfied: nil
        case .requiresConnection: .linkDown
        case .unsatisfied: .noRoute
        }
        let via = reachable ? (interface ?? (flags.contains(.isWWAN) ? .fakeCellular : .fakeEthernet)) : nil
        return NetworkPath(
            status: status, unsatisfiedReason: reason, flags: flags, interface: via,
            availableInterfaces: via.map { [$0] } ?? [], gateways: [],
            isExpensive: via?.isExpensive ?? false, isConstrained: false,
            supportsIPv4: status == .satisfied, supportsIPv6: false, supportsDNS: status == .satisfied
        )
    }
}

extension NetworkInterface {
    /// `eth0`, index 2, wired: the interface of a fake online path.
    public static let fakeEthernet = NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)
    /// `wwan0`, index 3, cellular and expensive.
    public static let fakeCellular = NetworkInterface(name: "wwan0", index: 3, type: .cellular, isExpensive: true)
}
