// Network framework's `NWPath`, in Apple's shape (iOS and macOS 26 SDK), over NetworkReachability's
// `NetworkPath`. What each member means on Linux: README's porting table, and the DocC article
// "Porting from Apple's frameworks".

/// `NWPath`: the state of the path a monitor watches, with Apple's members.
///
/// A thin value over ``NetworkPath`` (``networkPath``), which keeps what Apple's does not: the
/// flags, Linux's reason for an unsatisfied path, the interface the route uses, the connectivity
/// probe's answer.
public struct NWPath: Equatable, CustomDebugStringConvertible, Sendable {
    /// `NWPath.Status` (without `CustomStringConvertible`, as Apple's, so a client's own
    /// `extension NWPath.Status: CustomStringConvertible` builds).
    public enum Status: Equatable, Sendable {
        /// The target is reachable now.
        case satisfied
        /// No route, one that leads nowhere, or an interface without carrier (a cable out) or dormant.
        case unsatisfied
        /// Apple: a new connection may activate the path (a VPN or cellular on demand). Never on
        /// Linux, where nothing activates a link because a socket connects: a cable out is
        /// `unsatisfied`.
        case requiresConnection
    }

    /// `NWPath.UnsatisfiedReason`. On Linux every unsatisfied path is `notAvailable` (the Linux
    /// reason is `networkPath.unsatisfiedReason`); the other cases are Apple's policies, which
    /// Linux has not.
    public enum UnsatisfiedReason: Equatable, Sendable {
        /// No reason given: a satisfied path, and every unsatisfied one on Linux.
        case notAvailable
        /// Apple: the user turned cellular data off for the app. Cannot happen on Linux.
        case cellularDenied
        /// Apple: the user turned Wi-Fi off for the app. Cannot happen on Linux.
        case wifiDenied
        /// Apple: the user denied local network access. Cannot happen on Linux.
        case localNetworkDenied
        /// Apple: a required VPN (an always-on or per-app VPN profile) is not active. Cannot
        /// happen on Linux: no configuration requires a VPN.
        case vpnInactive
    }

    /// `NWPath.LinkQuality`: ``LinkQuality``'s classes, measured from the link layer (see there).
    public enum LinkQuality: Equatable, Sendable {
        /// No carrier, no figures (cellular, tunnels, loopback), or no route.
        case unknown
        /// Wi-Fi below -80 dBm; wired under 10 Mb/s, or 10 Mb/s half duplex.
        case minimal
        /// Wi-Fi from -80 to -67 dBm; wired 10 to 99 Mb/s full duplex, or 100 Mb/s and more half duplex.
        case moderate
        /// Wi-Fi at -67 dBm or better; wired 100 Mb/s and more, full duplex.
        case good
    }

    /// NetworkReachability's path this one stands for (not an Apple member).
    public let networkPath: NetworkPath

    /// Wraps NetworkReachability's path (not an Apple initialiser).
    public init(_ networkPath: NetworkPath) {
        self.networkPath = networkPath
    }

    /// Whether the target can be reached now.
    public var status: Status {
        switch networkPath.status {
        case .satisfied: .satisfied
        case .unsatisfied: .unsatisfied
        case .requiresConnection: .requiresConnection
        }
    }

    /// Always `notAvailable` on Linux; `networkPath.unsatisfiedReason` says why.
    public var unsatisfiedReason: UnsatisfiedReason { .notAvailable }

    /// Interfaces that are up, have carrier and hold an address beyond their link; the route's first.
    public var availableInterfaces: [NWInterface] { networkPath.availableInterfaces.map(NWInterface.init) }
    /// The route leaves by an expensive interface: cellular, phone tethering, or named by the policy.
    public var isExpensive: Bool { networkPath.isExpensive }
    /// The route's interface is named constrained (or ultra-constrained) by the interface policy.
    public var isConstrained: Bool { networkPath.isConstrained }
    /// The route's interface is named ultra-constrained by the interface policy; otherwise false.
    public var isUltraConstrained: Bool { networkPath.isUltraConstrained }
    /// The measured quality of the route's interface's link layer.
    public var linkQuality: LinkQuality {
        switch networkPath.linkQuality {
        case .unknown: .unknown
        case .minimal: .minimal
        case .moderate: .moderate
        case .good: .good
        }
    }
    /// IPv4 has a usable route for the target.
    public var supportsIPv4: Bool { networkPath.supportsIPv4 }
    /// IPv6 has a usable route for the target.
    public var supportsIPv6: Bool { networkPath.supportsIPv6 }
    /// At least one name server is configured.
    public var supportsDNS: Bool { networkPath.supportsDNS }
    /// The gateways of the route in use, as `.hostPort(host: .ipv4(...) or .ipv6(...), port: 0)`.
    public var gateways: [NWEndpoint] {
        networkPath.gateways.map { .hostPort(host: NWEndpoint.Host($0), port: .any) }
    }
    /// Nil: a monitor's path has no connection, so no local endpoint (as Apple's).
    public var localEndpoint: NWEndpoint? { nil }
    /// Nil: a monitor's path has no connection, so no remote endpoint (as Apple's).
    public var remoteEndpoint: NWEndpoint? { nil }

    /// Whether the path uses an interface of `type`: the route's own interface, or, when that is a
    /// tunnel (a VPN), the physical link beneath it where it can be told: the first interface
    /// that is not a tunnel in `availableInterfaces` (the best default route's), as Apple's
    /// answers `.wifi` for a VPN over Wi-Fi. An unsatisfied path uses no interface, so it is
    /// false for every type, as Apple's.
    public func usesInterfaceType(_ type: NWInterface.InterfaceType) -> Bool {
        guard networkPath.status == .satisfied, let interface = networkPath.interface else { return false }
        if interface.type == type.interfaceType { return true }
        guard interface.isTunnel else { return false }
        let underlying = networkPath.availableInterfaces.first { !$0.isTunnel && $0.type != .loopback }
        return underlying?.type == type.interfaceType
    }

    /// `satisfied (interface: eth0[wiredEthernet], ipv4, dns, gateways: 10.0.0.1:0)` and the like.
    public var debugDescription: String {
        var text = "\(status)"
        if status != .satisfied, let reason = networkPath.unsatisfiedReason { text += " (\(reason))" }
        var details: [String] = []
        if let interface = networkPath.interface { details.append("interface: \(interface.name)[\(interface.type)]") }
        if supportsIPv4 { details.append("ipv4") }
        if supportsIPv6 { details.append("ipv6") }
        if supportsDNS { details.append("dns") }
        if isExpensive { details.append("expensive") }
        if isConstrained { details.append("constrained") }
        if isUltraConstrained { details.append("ultra-constrained") }
        if linkQuality != .unknown { details.append("link quality: \(linkQuality)") }
        if !gateways.isEmpty { details.append("gateways: \(gateways.map(\.debugDescription).joined(separator: ", "))") }
        return details.isEmpty ? text : "\(text) (\(details.joined(separator: ", ")))"
    }
}
