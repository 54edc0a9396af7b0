import NetworkReachability

extension NetworkPath {
    /// A satisfied path over `interface` (default: `eth0`, wired), as a test's "online".
    public static func online(via interface: NetworkInterface = .fakeEthernet) -> NetworkPath {
        fake(flags: interface.type == .cellular ? [.reachable, .isWWAN] : [.reachable], interface: interface)
    }

    /// A satisfied path over `interface` whose connectivity probe answered `connectivity`: one
    /// line for "online, internet full" (`.online(connectivity: .full)`), "online, limited", or
    /// "online, portal" (`.online(connectivity: .portal, portalURL: ...)`, or `captivePortal(_:)`).
    ///
    /// Every answer but `unknown` carries the probe that gave it as `connectivitySource`
    /// (`probe http://connectivity.fake/generate_204`), as a monitor's path does.
    public static func online(
        via interface: NetworkInterface = .fakeEthernet, connectivity: Connectivity, portalURL: String? = nil
    ) -> NetworkPath {
        var path = online(via: interface)
        path.connectivity = connectivity
        path.portalURL = portalURL
        path.connectivitySource = connectivity == .unknown ? nil : .probe("http://connectivity.fake/generate_204")
        return path
    }

    /// A satisfied path behind a captive portal: connectivity `portal`, redirected to `portalURL`.
    public static func captivePortal(
        _ portalURL: String? = "http://portal.fake/login", via interface: NetworkInterface = .fakeEthernet
    ) -> NetworkPath {
        online(via: interface, connectivity: .portal, portalURL: portalURL)
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
