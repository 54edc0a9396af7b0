
/// What the host's configuration says about interfaces, beyond what the kernel knows.
public struct InterfacePolicy: Sendable, Hashable {
    /// Interfaces whose paths are `isExpensive` besides cellular ones and phone tethering (e.g. a metered LTE router's link).
    public var expensiveInterfaceNames: Set<String>
    /// Interfaces whose paths are `isConstrained` (Low Data Mode has no Linux equivalent: only this list sets it).
    public var constrainedInterfaceNames: Set<String>
    /// The root sysfs is read from to classify devices (`ROOT/class/net/IF/uevent`, `phy80211`, `wireless`,
    /// `device/driver`). nil: `/sys`, read only for the process's own namespace, since another
    /// namespace's devices are not in this process's sysfs (ioctls made inside it answer instead).
    /// Set, it is read for every namespace: a test hook, pointed at fixtures of Wi-Fi, WWAN and
    /// Bluetooth devices; not public API.
    var sysfsRoot: String?

    /// - Parameters: see the properties; all empty by default.
    public init(expensiveInterfaceNames: Set<String> = [], constrainedInterfaceNames: Set<String> = []) {
        self.expensiveInterfaceNames = expensiveInterfaceNames
        self.constrainedInterfaceNames = constrainedInterfaceNames
    }

    /// A policy that reads sysfs under `sysfsRoot` (tests).
    init(expensiveInterfaceNames: Set<String> = [], constrainedInterfaceNames: Set<String> = [], sysfsRoot: String?) {
        self.init(expensiveInterfaceNames: expensiveInterfaceNames, constrainedInterfaceNames: constrainedInterfaceNames)
        self.sysfsRoot = sysfsRoot
    }
}

/// Process-wide settings of the library.
public enum ReachabilitySettings {
    private static let policy = LockedState((InterfacePolicy(), UInt64(0)))

    /// The interface policy every engine applies; a change reaches monitors with the next event
    /// of their namespace, or at once through `currentPath` on an unscheduled monitor.
    public static var interfacePolicy: InterfacePolicy {
        get { policy.withLock { $0.0 } }
        set { policy.withLock { $0 = (newValue, $0.1 &+ 1) } }
    }

    /// The policy with a generation that moves on every change, so engines can tell it changed.
    static var interfacePolicyWithGeneration: (InterfacePolicy, UInt64) {
        policy.withLock { $0 }
    }
}
