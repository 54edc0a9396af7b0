/// The model's seams for tests, the one file of this target that holds `#if DEBUG`.
///
/// A test points a policy at fixture directories through what the policy is made with
/// (`InterfacePolicy(sysfsRoot:)`, `InterfacePolicy(sysfsRoot:networkdLinksRoot:resolvedRoot:)`);
/// production code asks `PolicyFixtures`, which in a release build is empty and answers nil, so
/// the release command carries neither the roots nor the initialisers that set them.
package struct PolicyFixtures: Sendable, Hashable {
    #if DEBUG
    /// The root sysfs is read from, for every namespace, in place of `/sys` (read only for the
    /// process's own namespace): fixtures of Wi-Fi, WWAN and Bluetooth devices.
    package var sysfsRoot: String?
    /// The directories resolved's and networkd's files are read from, for every namespace, in
    /// place of `/run/systemd/resolve` and `/run/systemd/netif/links` (read for the process's own
    /// namespace only): fixtures written as those daemons write them.
    package var systemdDirectories: NameServerSources?
    #endif

    package init() {}

    /// The fixture sysfs a test set; nil in production.
    package var sysfs: String? {
        #if DEBUG
        sysfsRoot
        #else
        nil
        #endif
    }

    /// The fixture directories of resolved and networkd a test set; nil in production.
    package var systemd: NameServerSources? {
        #if DEBUG
        systemdDirectories
        #else
        nil
        #endif
    }
}

#if DEBUG
extension InterfacePolicy {
    /// A policy that reads sysfs under `sysfsRoot`, for every namespace (tests).
    package init(expensiveInterfaceNames: Set<String> = [], constrainedInterfaceNames: Set<String> = [], sysfsRoot: String?) {
        self.init(expensiveInterfaceNames: expensiveInterfaceNames, constrainedInterfaceNames: constrainedInterfaceNames)
        fixtures.sysfsRoot = sysfsRoot
    }

    /// A policy that reads sysfs under `sysfsRoot`, networkd's link states under `networkdLinksRoot`
    /// and resolved's files under `resolvedRoot`, for every namespace (tests).
    package init(sysfsRoot: String?, networkdLinksRoot: String?, resolvedRoot: String? = nil) {
        self.init(sysfsRoot: sysfsRoot)
        fixtures.systemdDirectories = NameServerSources(resolvedDirectory: resolvedRoot, networkdLinksDirectory: networkdLinksRoot)
    }

    /// The fixture sysfs root (tests read it back).
    package var sysfsRoot: String? { fixtures.sysfsRoot }
}
#endif
