// Network framework's names over NetworkReachability: `NWPathMonitor`'s `pathUpdateHandler`,
// `start(queue:)`, `cancel()` and `currentPath` are `PathMonitor`'s own.

/// `NWPathMonitor`: watches the general path, or one address or host.
public typealias NWPathMonitor = PathMonitor
/// `NWPath`: the state of a path; `status`, `availableInterfaces`, `usesInterfaceType(_:)`,
/// `isExpensive`, `isConstrained`, `supportsIPv4`, `supportsIPv6`, `supportsDNS`.
public typealias NWPath = NetworkPath
/// `NWInterface`: a network interface; `NWInterface.InterfaceType` has `.wifi`, `.cellular`,
/// `.wiredEthernet`, `.loopback` and `.other`.
public typealias NWInterface = NetworkInterface

extension PathMonitor {
    /// `NWPathMonitor()`: the general path of `ReachabilityCompat.defaultNamespace`, made without
    /// `try`, as Apple's cannot fail.
    ///
    /// When that namespace cannot be opened, the monitor reports `unsatisfied` with
    /// `namespaceUnavailable` and its `setupError` says why; it never stops the program.
    public convenience init() {
        self.init(requiredInterfaceType: nil, prohibitedInterfaceTypes: [], namespace: defaultNamespace)
    }
}
