import ReachabilitySystem
/// How well the link layer of an interface can carry traffic, in Apple's four classes
/// (`NWPath.LinkQuality`), measured from the link's own figures.
///
/// A hint for tuning what scales with the network (initial bitrates, prefetching, parallelism);
/// never a reason not to try a connection. The figures and class thresholds are in
/// docs/semantics.md, "Link quality": wired and virtual links by carrier, negotiated speed and
/// duplex (what `ethtool` reads); Wi-Fi by the station's signal; cellular and links without such
/// figures (tunnels, loopback, a link without carrier) are `unknown`.
public enum LinkQuality: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Nothing to measure: no carrier, no figures (tunnels, loopback, cellular), or no route.
    case unknown
    /// Barely usable: a Wi-Fi signal below -80 dBm, or under 10 Mb/s (or 10 Mb/s half duplex) wired.
    case minimal
    /// Usable for most traffic: Wi-Fi from -80 to -67 dBm, or 10 to 99 Mb/s full duplex (or 100 Mb/s
    /// and more half duplex) wired.
    case moderate
    /// Good for anything: Wi-Fi at -67 dBm or better, or 100 Mb/s and more full duplex wired.
    case good

    /// The case name, as `reachability --json` prints it.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .minimal: "minimal"
        case .moderate: "moderate"
        case .good: "good"
        }
    }
}
