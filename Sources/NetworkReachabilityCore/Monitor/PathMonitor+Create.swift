import ReachabilityDelivery
import ReachabilityEngine
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The public initialisers: one per kind of target (`SCNetworkReachabilityCreateWith...` and
/// `NWPathMonitor(...)`), each with a namespace and an interface policy.
extension PathMonitor {
    /// Monitors a host name (`SCNetworkReachabilityCreateWithName`).
    ///
    /// The name is resolved through the system resolver (`/etc/hosts`, `nsswitch.conf`,
    /// `resolv.conf`; for `.named(NAME)` the files under `/etc/netns/NAME/` take their place) on
    /// resolver threads inside the namespace, never on the caller's thread. Every address is
    /// evaluated; the best one wins. The name resolves again when the network or the resolver's
    /// configuration changes, and every `options.reresolveInterval`. An IP address given as the
    /// name is monitored as an address, with no resolver round trip.
    ///
    /// - Parameters:
    ///   - host: a host name such as `example.com`, or an IP literal.
    ///   - namespace: the network namespace to watch; default: the process's own.
    ///   - interfacePolicy: which interfaces count as expensive or constrained; default: none.
    ///   - options: re-resolution interval (60 s) and how long `flags()` waits for the first answer (5 s).
    /// - Throws: `ReachabilityError.invalidHostName` naming the broken rule, or a namespace error.
    public convenience init(host: String, namespace: NetworkNamespace = .current, interfacePolicy: InterfacePolicy = InterfacePolicy(),
                            options: HostResolutionOptions = .default) throws(ReachabilityError) {
        if let address = try? IPAddress(host) {
            try self.init(target: .address(address), namespace: namespace, policy: interfacePolicy)
            return
        }
        let name = try HostName.validate(host)
        try self.init(target: .host(name), namespace: namespace, policy: interfacePolicy, hostOptions: options)
    }

    /// Monitors one address (`SCNetworkReachabilityCreateWithAddress`).
    ///
    /// - Parameters:
    ///   - address: an IPv4 or IPv6 address; `fe80::1%eth0` names the link of a link-local address;
    ///     `0.0.0.0` or `::` ask whether the default route of that family works.
    ///   - namespace: the network namespace to watch; default: the process's own.
    ///   - interfacePolicy: which interfaces count as expensive or constrained; default: none.
    /// - Throws: `ReachabilityError.invalidAddress`, or a namespace error.
    public convenience init(address: String, namespace: NetworkNamespace = .current,
                            interfacePolicy: InterfacePolicy = InterfacePolicy()) throws(ReachabilityError) {
        try self.init(target: .address(IPAddress(address)), namespace: namespace, policy: interfacePolicy)
    }

    /// Monitors the address in a `sockaddr_in` or `sockaddr_in6`; a `sin6_scope_id` selects the link.
    ///
    /// - Throws: `ReachabilityError.invalidSocketAddress` for any other family.
    public convenience init(address: UnsafePointer<sockaddr>, namespace: NetworkNamespace = .current,
                            interfacePolicy: InterfacePolicy = InterfacePolicy()) throws(ReachabilityError) {
        try self.init(target: .address(IPAddress(sockaddr: address)), namespace: namespace, policy: interfacePolicy)
    }

    /// Monitors the path from a local to a remote address (`SCNetworkReachabilityCreateWithAddressPair`):
    /// the route of `ip route get REMOTE from LOCAL`.
    ///
    /// A local address that no interface holds makes the pair not reachable. With only a local
    /// address, the pair is reachable while the host holds it. With neither, this is the general path.
    /// - Throws: `ReachabilityError.invalidAddress`, or a namespace error.
    public convenience init(localAddress: String?, remoteAddress: String?, namespace: NetworkNamespace = .current,
                            interfacePolicy: InterfacePolicy = InterfacePolicy()) throws(ReachabilityError) {
        let local = try localAddress.map { (text) throws(ReachabilityError) in try IPAddress(text) }
        let remote = try remoteAddress.map { (text) throws(ReachabilityError) in try IPAddress(text) }
        let target: MonitorTarget = (local == nil && remote == nil) ? .general(.none) : .pair(local: local, remote: remote)
        try self.init(target: target, namespace: namespace, policy: interfacePolicy)
    }

    /// Monitors the pair of two `sockaddr`s; either may be nil.
    public convenience init(localAddress: UnsafePointer<sockaddr>?, remoteAddress: UnsafePointer<sockaddr>?,
                            namespace: NetworkNamespace = .current,
                            interfacePolicy: InterfacePolicy = InterfacePolicy()) throws(ReachabilityError) {
        let local = try localAddress.map { (pointer) throws(ReachabilityError) in try IPAddress(sockaddr: pointer) }
        let remote = try remoteAddress.map { (pointer) throws(ReachabilityError) in try IPAddress(sockaddr: pointer) }
        let target: MonitorTarget = (local == nil && remote == nil) ? .general(.none) : .pair(local: local, remote: remote)
        try self.init(target: target, namespace: namespace, policy: interfacePolicy)
    }

    /// Monitors the general path, as `NWPathMonitor()` and `NWPathMonitor(requiredInterfaceType:)` do:
    /// the better of the IPv4 and IPv6 default routes.
    ///
    /// With a required or prohibited interface type the path is evaluated as if only the allowed
    /// interfaces existed: each default-route lookup is restricted to one of them
    /// (`ip route get ... oif IF`), so with Ethernet as the default and Wi-Fi connected too, a
    /// monitor that requires Wi-Fi is satisfied over Wi-Fi. With no allowed interface the path is
    /// unsatisfied with `requiredInterfaceUnavailable`.
    ///
    /// Like `NWPathMonitor`'s, this initialiser does not throw. When the namespace cannot be opened
    /// (missing, or no right to enter it), the monitor reports `unsatisfied` with
    /// `namespaceUnavailable`, `flags()` throws, and `setupError` says what to fix.
    /// - Parameters:
    ///   - requiredInterfaceType: only interfaces of this type count; default: any.
    ///   - prohibitedInterfaceTypes: interfaces of these types do not count; default: none.
    ///   - namespace: the network namespace to watch; default: the process's own.
    ///   - interfacePolicy: which interfaces count as expensive or constrained; default: none.
    public convenience init(requiredInterfaceType: NetworkInterface.InterfaceType? = nil,
                prohibitedInterfaceTypes: [NetworkInterface.InterfaceType] = [],
                namespace: NetworkNamespace = .current, interfacePolicy: InterfacePolicy = InterfacePolicy()) {
        let target = MonitorTarget.general(InterfaceFilter(required: requiredInterfaceType, prohibited: Set(prohibitedInterfaceTypes)))
        do throws(ReachabilityError) {
            let engine = try EngineRegistry.engine(for: namespace, policy: interfacePolicy)
            self.init(target: target, namespace: namespace, hostOptions: nil, engine: engine)
        } catch {
            Logger(label: "network-reachability").notice("monitor cannot watch its namespace", metadata: ["error": "\(error)"])
            self.init(unavailable: target, namespace: namespace, error: error)
        }
    }
}
