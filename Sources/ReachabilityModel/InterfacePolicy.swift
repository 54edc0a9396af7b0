import ReachabilitySystem

/// What the host's configuration says about interfaces, beyond what the kernel knows.
///
/// Given to a monitor when it is made (`PathMonitor(namespace:interfacePolicy:)` and the other
/// initialisers) and fixed for its life: it is configuration, not process-wide state. Monitors of
/// one namespace with equal policies share an engine; a different policy opens an engine of its
/// own (its own netlink sockets), so a process should keep to one policy per namespace unless it
/// needs two. To change the policy, make new monitors with the new one.
public struct InterfacePolicy: Sendable, Hashable {
    /// Interfaces whose paths are `isExpensive` besides cellular ones and phone tethering (e.g. a metered LTE router's link).
    public var expensiveInterfaceNames: Set<String>
    /// Interfaces whose paths are `isConstrained` (Low Data Mode has no Linux equivalent: only this list sets it).
    public var constrainedInterfaceNames: Set<String>
    /// Interfaces whose paths are `isUltraConstrained` (and so `isConstrained` too): Apple's
    /// ultra-constrained mode has no Linux equivalent, only this list sets it.
    public var ultraConstrainedInterfaceNames: Set<String> = []
    /// The root sysfs is read from to classify devices (`ROOT/class/net/IF/uevent`, `phy80211`, `wireless`,
    /// `device/driver`). nil: `/sys`, read only for the process's own namespace, since another
    /// namespace's devices are not in this process's sysfs (ioctls made inside it answer instead).
    /// Set, it is read for every namespace: a test hook, pointed at fixtures of Wi-Fi, WWAN and
    /// Bluetooth devices; not public API.
    package var sysfsRoot: String?
    #if DEBUG
    /// Test hook (debug builds only): the directories resolved's and networkd's files are read
    /// from, for every namespace, in place of `/run/systemd/resolve` and `/run/systemd/netif/links`
    /// (read for the process's own namespace only): fixtures written as those daemons write them.
    package var fixtureSystemdDirectories: NameServerSources?
    #endif

    /// - Parameters: see the properties; all empty by default.
    public init(expensiveInterfaceNames: Set<String> = [], constrainedInterfaceNames: Set<String> = [],
                ultraConstrainedInterfaceNames: Set<String> = []) {
        self.expensiveInterfaceNames = expensiveInterfaceNames
        self.constrainedInterfaceNames = constrainedInterfaceNames
        self.ultraConstrainedInterfaceNames = ultraConstrainedInterfaceNames
    }

    /// A policy that reads sysfs under `sysfsRoot` (tests).
    package init(expensiveInterfaceNames: Set<String> = [], constrainedInterfaceNames: Set<String> = [], sysfsRoot: String?) {
        self.init(expensiveInterfaceNames: expensiveInterfaceNames, constrainedInterfaceNames: constrainedInterfaceNames)
        self.sysfsRoot = sysfsRoot
    }

    #if DEBUG
    /// A policy that reads sysfs under `sysfsRoot`, networkd's link states under `networkdLinksRoot`
    /// and resolved's files under `resolvedRoot`, for every namespace (tests; debug builds only).
    package init(sysfsRoot: String?, networkdLinksRoot: String?, resolvedRoot: String? = nil) {
        self.init(sysfsRoot: sysfsRoot)
        fixtureSystemdDirectories = NameServerSources(resolvedDirectory: resolvedRoot, networkdLinksDirectory: networkdLinksRoot)
    }
    #endif
}
