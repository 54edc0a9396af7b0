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
    /// Precondition: the namespace can be watched. In the process's own namespace (the default)
    /// that fails only when netlink is unusable (no `NETLINK_ROUTE` socket can be opened); a
    /// `defaultNamespace` that does not exist or may not be entered is a programming error here.
    /// Either stops the program with the reason. Use `try PathMonitor(namespace:)` to handle the
    /// error instead.
    public convenience init() {
        let namespace = defaultNamespace
        do {
            try self.init(namespace: namespace)
        } catch {
            fatalError("NWPathMonitor(): cannot watch namespace '\(namespace)': \(error) (use 'try PathMonitor(namespace:)' to handle this error)")
        }
    }
}
