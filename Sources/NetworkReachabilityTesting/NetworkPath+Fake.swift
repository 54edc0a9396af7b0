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

    /// A satisfied path behind a captive portal: connectivity `portal`, redirected to `portalURL`
    /// (``NetworkPath/connectivityReason`` `redirect`, as a monitor's probe says of a redirect).
    public static func captivePortal(
        _ portalURL: String? = "http://portal.fake/login", via interface: NetworkInterface = .fakeEthernet
    ) -> NetworkPath {
        var path = online(via: interface, connectivity: .portal, portalURL: portalURL)
        path.connectivityReason = "redirect"
        return path
    }

    /// An unsatisfied path, as a test's "offline": no flags, no interface (what a monitor reports
    /// for no route, or a route of type `unreachable`, `prohibit` or `blackhole`). With
    /// `.noCarrier` it is ``unplugged(via:)``, as a monitor reports a cable out.
    public static func offline(_ reason: UnsatisfiedReason = .noRoute) -> NetworkPath {
        if reason == .noCarrier { return unplugged() }
        var path = fake(flags: [])
        path.unsatisfiedReason = reason
        return path
    }

    /// A cable out (or a Wi-Fi link not associated): the route stays, over `interface` (default:
    /// `eth0`, wired), but the link has no carrier. As a monitor reports it: `unsatisfied` with
    /// the reason `noCarrier`, the flags `reachable` + `connectionRequired` (so
    /// SCNetworkReachability-style code reads "not reachable"), the route's interface in
    /// `interface` with link quality `unknown`, no available interface, and no family or DNS.
    public static func unplugged(via interface: NetworkInterface = .fakeEthernet) -> NetworkPath {
        fake(flags: [.reachable, .connectionRequired], interface: interface)
    }

    /// The path a monitor reports with `flags`: satisfied when AFNetworking's status for them is
    /// reachable (`reachable` without `connectionRequired`); unsatisfied otherwise, with the
    /// reason `noCarrier` when `reachable` is set (a link without carrier keeps its route) and
    /// `noRoute` when not. A path with `reachable` leaves by `interface` (default: `eth0`, or
    /// `wwan0` when `isWWAN` is set); only a satisfied one lists it in `availableInterfaces`, and
    /// an unsatisfied one's interface has no link quality (no carrier).
    public static func fake(flags: ReachabilityFlags, interface: NetworkInterface? = nil) -> NetworkPath {
        let reachable = flags.contains(.reachable)
        let satisfied = ReachabilityStatus(flags: flags).isReachable
        let reason: UnsatisfiedReason? = satisfied ? nil : reachable ? .noCarrier : .noRoute
        var via = reachable ? (interface ?? (flags.contains(.isWWAN) ? .fakeCellular : .fakeEthernet)) : nil
        if !satisfied { via?.linkQuality = .unknown }
        return NetworkPath(
            status: satisfied ? .satisfied : .unsatisfied, unsatisfiedReason: reason, flags: flags, interface: via,
            availableInterfaces: satisfied ? via.map { [$0] } ?? [] : [], gateways: [],
            isExpensive: via?.isExpensive ?? false, isConstrained: false,
            supportsIPv4: satisfied, supportsIPv6: false, supportsDNS: satisfied
        )
    }
}

extension NetworkInterface {
    /// `eth0`, index 2, wired, link quality `good` (what a wired link with carrier at 100 Mb/s or
    /// more, full duplex, measures): the interface of a fake online path.
    public static let fakeEthernet = NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet, linkQuality: .good)
    /// `wwan0`, index 3, cellular and expensive; link quality `unknown` (a modem gives no figures).
    public static let fakeCellular = NetworkInterface(name: "wwan0", index: 3, type: .cellular, isExpensive: true)
}
