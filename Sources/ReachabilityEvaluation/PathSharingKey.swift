import ReachabilityModel

/// What the path of an address target depends on, beyond the pass's shared state (links,
/// addresses, name servers): its verdict's stamp. The address itself appears nowhere in its
/// path, so address targets with equal keys have equal paths and one evaluation serves them all.
package struct PathSharingKey: Hashable {
    package var stamp: PathVerdict

    /// nil for targets whose path depends on more than that (pairs, host names, the general path)
    /// and for a verdict with no stamp.
    package init?(target: MonitorTarget, stamp: PathVerdict?) {
        guard case .address = target, let stamp else { return nil }
        self.stamp = stamp
    }
}
