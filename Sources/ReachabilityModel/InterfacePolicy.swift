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
    /// Fixture directories a test reads in place of sysfs and systemd's (`ModelSeams.swift`);
    /// empty in a release build.
    package var fixtures = PolicyFixtures()

    /// - Parameters: see the properties; all empty by default.
    public init(expensiveInterfaceNames: Set<String> = [], constrainedInterfaceNames: Set<String> = [],
                ultraConstrainedInterfaceNames: Set<String> = []) {
        self.expensiveInterfaceNames = expensiveInterfaceNames
        self.constrainedInterfaceNames = constrainedInterfaceNames
        self.ultraConstrainedInterfaceNames = ultraConstrainedInterfaceNames
    }
}
