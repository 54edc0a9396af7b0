import ReachabilitySystem
/// The state of a monitor's target, as `NWPath` describes a path.
public struct NetworkPath: Sendable, Hashable, CustomStringConvertible {
    /// `NWPath.Status`.
    public enum Status: Sendable, Hashable, CustomStringConvertible {
        /// The target is reachable now.
        case satisfied
        /// No route, one that leads nowhere, or a route over an interface without carrier or
        /// dormant (a cable out): no packet leaves now.
        case unsatisfied
        /// Apple's "not available now, but a new connection may activate it" (a VPN or cellular
        /// on demand). Never on Linux: nothing activates a link because a socket connects. A link
        /// without carrier is `unsatisfied` with the reason `noCarrier` (its flags still say
        /// `reachable` and `connectionRequired`).
        case requiresConnection

        public var description: String {
            switch self {
            case .satisfied: "satisfied"
            case .unsatisfied: "unsatisfied"
            case .requiresConnection: "requiresConnection"
            }
        }
    }

    /// Why a path is not satisfied.
    public enum UnsatisfiedReason: Sendable, Hashable, CustomStringConvertible {
        /// No route (ENETUNREACH), or a `throw` route, which the kernel answers as no route.
        case noRoute
        /// The route is of type `unreachable` (the kernel answers EHOSTUNREACH).
        case unreachableRoute
        /// The route is of type `prohibit` (the kernel answers EACCES).
        case prohibitedRoute
        /// The route is of type `blackhole` (the kernel answers EINVAL).
        case blackholeRoute
        /// The route's interface is up but has no carrier (a cable out, a peer down), or is
        /// dormant (waiting for 802.1X or Wi-Fi association). `reachability --json` printed it as
        /// `linkDown` before 0.2.0.
        case noCarrier
        /// The route's interface is administratively down (`ip link set IF down`; the human
        /// line's `link down on IF`).
        case interfaceDown
        /// The local address of an address pair is not one of this host's.
        case localAddressUnavailable
        /// The required interface type is not in use, or only prohibited ones are.
        case requiredInterfaceUnavailable
        /// The host name did not resolve.
        case nameNotResolved
        /// No name server is configured.
        case noDNSServer
        /// The monitored network namespace no longer exists.
        case namespaceUnavailable

        /// The camelCase word `reachability --json` prints.
        public var description: String {
            switch self {
            case .noRoute: "noRoute"
            case .unreachableRoute: "unreachableRoute"
            case .prohibitedRoute: "prohibitedRoute"
            case .blackholeRoute: "blackholeRoute"
            case .noCarrier: "noCarrier"
            case .interfaceDown: "interfaceDown"
            case .localAddressUnavailable: "localAddressUnavailable"
            case .requiredInterfaceUnavailable: "requiredInterfaceUnavailable"
            case .nameNotResolved: "nameNotResolved"
            case .noDNSServer: "noDNSServer"
            case .namespaceUnavailable: "namespaceUnavailable"
            }
        }

        /// The name of ``noCarrier`` before 0.2.0, when it also read as "the interface is down".
        @available(*, deprecated, renamed: "noCarrier", message: "no carrier is `noCarrier`; an interface set down is `interfaceDown`")
        public static var linkDown: UnsatisfiedReason { .noCarrier }
    }

    /// The fields, in one reference-counted box that copies share until one of them changes (copy
    /// on write). A monitor keeps several paths (current, last queued, last delivered per face)
    /// and a delivery copies one per face: inline, each was a struct of some 200 bytes with a
    /// retain per array and string; boxed, it is one pointer (10,000 monitors' heap, BENCHMARKS.md).
    private var storage: Storage

    /// Whether the target can be reached now.
    public var status: Status {
        get { storage.fields.status }
        set { uniqueStorage().fields.status = newValue }
    }
    /// Why not, when `status` is not `satisfied`; nil when it is.
    public var unsatisfiedReason: UnsatisfiedReason? {
        get { storage.fields.unsatisfiedReason }
        set { uniqueStorage().fields.unsatisfiedReason = newValue }
    }
    /// The SCNetworkReachability flags of the target.
    public var flags: ReachabilityFlags {
        get { storage.fields.flags }
        set { uniqueStorage().fields.flags = newValue }
    }
    /// AFNetworking's status for `flags`, computed from them, so never out of step with them.
    public var reachabilityStatus: ReachabilityStatus { ReachabilityStatus(flags: flags) }
    /// The interface the target's route leaves by.
    public var interface: NetworkInterface? {
        get { storage.fields.interface }
        set { uniqueStorage().fields.interface = newValue }
    }
    /// The index of `interface`, read in place: no copy of the interface and its name.
    package var interfaceIndex: Int? { storage.fields.interface?.index }
    /// Interfaces that are up, have carrier and hold an address that reaches beyond their link
    /// (an interface with only link-local addresses, such as a container's host-side veth, is
    /// listed only when the target's route uses it); the one the target's route uses first, then
    /// by default-route metric.
    public var availableInterfaces: [NetworkInterface] {
        get { storage.fields.availableInterfaces }
        set { uniqueStorage().fields.availableInterfaces = newValue }
    }
    /// The gateways of the route in use (the command prints them with `IPAddress.addressString`).
    public var gateways: [IPAddress] {
        get { storage.fields.gateways }
        set { uniqueStorage().fields.gateways = newValue }
    }
    /// The route leaves by an expensive interface (cellular).
    public var isExpensive: Bool {
        get { storage.fields.isExpensive }
        set { uniqueStorage().fields.isExpensive = newValue }
    }
    /// The route leaves by an interface the configuration calls constrained.
    public var isConstrained: Bool {
        get { storage.fields.isConstrained }
        set { uniqueStorage().fields.isConstrained = newValue }
    }
    /// IPv4 has a usable route for the target.
    public var supportsIPv4: Bool {
        get { storage.fields.supportsIPv4 }
        set { uniqueStorage().fields.supportsIPv4 = newValue }
    }
    /// IPv6 has a usable route for the target.
    public var supportsIPv6: Bool {
        get { storage.fields.supportsIPv6 }
        set { uniqueStorage().fields.supportsIPv6 = newValue }
    }
    /// A name server serves this path: one that resolv.conf names, or behind systemd-resolved's
    /// stub one of its upstream servers, global or of the path's interface. False on a path that is
    /// not satisfied or has no interface.
    public var supportsDNS: Bool {
        get { storage.fields.supportsDNS }
        set { uniqueStorage().fields.supportsDNS = newValue }
    }
    /// For a host-name target: the addresses it resolved to, in the resolver's order; empty otherwise.
    public var resolvedAddresses: [IPAddress] {
        get { storage.fields.resolvedAddresses }
        set { uniqueStorage().fields.resolvedAddresses = newValue }
    }
    /// For a host-name target: the last lookup failed for a reason that may pass (a timeout,
    /// SERVFAIL), so `resolvedAddresses` are those of the last success.
    public var resolvedAddressesAreStale: Bool {
        get { storage.fields.resolvedAddressesAreStale }
        set { uniqueStorage().fields.resolvedAddressesAreStale = newValue }
    }
    // Connectivity: set by the monitor's probe, never by the engine.
    /// Whether the monitor's ``ConnectivityProbe`` got through: `unknown` without a probe or
    /// before the first answer since the path changed, `none` while the path is not satisfied.
    public var connectivity: Connectivity {
        get { storage.fields.connectivity }
        set { uniqueStorage().fields.connectivity = newValue }
    }
    /// When `connectivity` is `portal` because of a redirect: its `Location`, made absolute, when
    /// that is an `http://` or `https://` URL with a host (any other scheme, such as
    /// `javascript:`, `data:` or `file:`, is never surfaced: ``connectivityReason`` then says
    /// `redirect to a non-HTTP URL`); when the captive-portal API said `captive`: its
    /// `user-portal-url`; else nil.
    public var portalURL: String? {
        get { storage.fields.portalURL }
        set { uniqueStorage().fields.portalURL = newValue }
    }
    /// Why `connectivity` is `limited`, `portal` or `none`, in a short stable phrase: `name not
    /// resolved`, `refused`, `reset`, `timed out`, `not HTTP`, `redirect` (`redirect to a non-HTTP
    /// URL`, `redirect to a malformed URL` when its `Location` is not surfaced as ``portalURL``),
    /// `status 200 without the expected text`, `status 511` (another status), a TLS failure (`TLS: certificate not
    /// trusted`, `TLS: certificate expired`, `TLS: wrong host name`, `TLS: handshake failed`,
    /// `TLS: timed out`), `no route`, `captive portal API` (the network's API said `captive`), or,
    /// for `none`, another reason the path is not satisfied (`no carrier`, `link down`, `prohibited by route`, ...).
    /// Nil when `full` or `unknown`, but for `captive portal API failed` (the API, fetched
    /// without a probe, failed: see ``captivePortal``).
    public var connectivityReason: String? {
        get { storage.fields.connectivityReason }
        set { uniqueStorage().fields.connectivityReason = newValue }
    }
    /// The captive-portal API (RFC 8908) the network of the path's interface announced, with no
    /// probe traffic: IPv6 Router Advertisement option 37 (RFC 8910), which the kernel passes on
    /// when it handles RAs itself (`accept_ra`). Nil when none was announced, or the network said
    /// it holds no portal (`urn:ietf:params:capport:unrestricted`); it goes when the interface goes
    /// down or away, and a newer announcement replaces it.
    public var captivePortalAPI: String? {
        get { storage.fields.captivePortalAPI }
        set { uniqueStorage().fields.captivePortalAPI = newValue }
    }
    /// What the network's captive-portal API (``captivePortalAPI``) answered, when the monitor
    /// fetched it (a ``ConnectivityProbe`` or `PathMonitor.fetchesCaptivePortalAPI` set, an API
    /// announced): `captive`, the portal's page, what is left of the session. Nil when not fetched,
    /// or when the API failed or answered garbage (the probe's answer then stands). Its `captive:
    /// true` makes `connectivity` `portal` with ``portalURL`` the API's `user-portal-url`.
    public var captivePortal: CaptivePortalStatus? {
        get { storage.fields.captivePortal }
        set { uniqueStorage().fields.captivePortal = newValue }
    }
    /// What gave the `connectivity` answer; nil while it is `unknown` or `none`.
    public var connectivitySource: ConnectivitySource? {
        get { storage.fields.connectivitySource }
        set { uniqueStorage().fields.connectivitySource = newValue }
    }

    /// Makes a path value; the library makes them, tests and adapters may too.
    public init(
        status: Status, unsatisfiedReason: UnsatisfiedReason?, flags: ReachabilityFlags,
        interface: NetworkInterface?, availableInterfaces: [NetworkInterface], gateways: [IPAddress],
        isExpensive: Bool, isConstrained: Bool, supportsIPv4: Bool, supportsIPv6: Bool, supportsDNS: Bool
    ) {
        storage = Storage(Fields(
            status: status, unsatisfiedReason: unsatisfiedReason, flags: flags, interface: interface,
            availableInterfaces: availableInterfaces, gateways: gateways, isExpensive: isExpensive,
            isConstrained: isConstrained, supportsIPv4: supportsIPv4, supportsIPv6: supportsIPv6,
            supportsDNS: supportsDNS
        ))
    }

    /// Whether an interface of `type` carries the path: the route's interface, while the path is
    /// satisfied. An unsatisfied path uses no interface, even when its route names one (a cable
    /// out keeps its routes, but no packet leaves by them), so this is false for every type.
    public func usesInterfaceType(_ type: NetworkInterface.InterfaceType) -> Bool {
        status == .satisfied && interface?.type == type
    }

    /// One line for a log: `satisfied via eth0 gw 10.0.0.1 flags -R ------d`.
    public var description: String {
        var text = status.description
        if !resolvedAddresses.isEmpty { text += " [\(resolvedAddresses.map(\.description).joined(separator: ","))]" }
        if let unsatisfiedReason { text += " (\(unsatisfiedReason))" }
        if let interface { text += " via \(interface.name)" }
        if !gateways.isEmpty { text += " gw \(gateways.map(\.addressString).joined(separator: ","))" }
        text += " flags \(flags)"
        if connectivity != .unknown { text += " connectivity \(connectivity)" }
        if let connectivityReason { text += " (\(connectivityReason))" }
        if let portalURL { text += " portal \(portalURL)" }
        if let captivePortalAPI { text += " captive-portal-api \(captivePortalAPI)" }
        if let captivePortal { text += " (\(captivePortal))" }
        var traits: [String] = []
        if supportsIPv4 { traits.append("ipv4") }
        if supportsIPv6 { traits.append("ipv6") }
        if supportsDNS { traits.append("dns") }
        if isExpensive { traits.append("expensive") }
        if isConstrained { traits.append("constrained") }
        if resolvedAddressesAreStale { traits.append("stale-addresses") }
        if !traits.isEmpty { text += " [\(traits.joined(separator: " "))]" }
        return text
    }

    /// The path of a target that has not been evaluated, or whose namespace is gone.
    package static func unsatisfied(_ reason: UnsatisfiedReason) -> NetworkPath {
        NetworkPath(
            status: .unsatisfied, unsatisfiedReason: reason, flags: [], interface: nil, availableInterfaces: [],
            gateways: [], isExpensive: false, isConstrained: false, supportsIPv4: false, supportsIPv6: false,
            supportsDNS: false
        )
    }
}

extension NetworkPath {
    /// What a path holds; `NetworkPath`'s properties read and write these.
    package struct Fields: Hashable, Sendable {
        package var status: Status
        package var unsatisfiedReason: UnsatisfiedReason?
        package var flags: ReachabilityFlags
        package var interface: NetworkInterface?
        package var availableInterfaces: [NetworkInterface]
        package var gateways: [IPAddress]
        package var isExpensive: Bool
        package var isConstrained: Bool
        package var supportsIPv4: Bool
        package var supportsIPv6: Bool
        package var supportsDNS: Bool
        package var resolvedAddresses: [IPAddress] = []
        package var resolvedAddressesAreStale: Bool = false
        package var connectivity: Connectivity = .unknown
        package var portalURL: String?
        package var connectivitySource: ConnectivitySource?
        package var connectivityReason: String?
        package var captivePortalAPI: String?
        package var captivePortal: CaptivePortalStatus?
    }

    /// `@unchecked Sendable`: `fields` is written only through `uniqueStorage()`, that is while
    /// one path alone holds the box; a box that two paths share is never written.
    package final class Storage: @unchecked Sendable {
        /// Unchecked: the box is written only through `uniqueStorage()`, once it is this path's
        /// alone, so no access to it can overlap another; the runtime's check, on every read of
        /// every property of every path, cost more than the read.
        @exclusivity(unchecked) package var fields: Fields
        package init(_ fields: Fields) { self.fields = fields }
    }

    /// The box, made this path's own first when another path shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    /// Whether the two paths share one storage box (what `RecentPaths` and a pass make happen).
    package func sharesStorage(with other: NetworkPath) -> Bool { storage === other.storage }

    public static func == (lhs: NetworkPath, rhs: NetworkPath) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let left = lhs.storage, right = rhs.storage
        // What tells a moved path from the last, read in place first: comparing the whole fields
        // copies both out of their boxes, a dozen references counted up and down.
        guard left.fields.status == right.fields.status, left.fields.flags == right.fields.flags,
              left.fields.connectivity == right.fields.connectivity else { return false }
        return left.fields == right.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }
}
