import ReachabilitySystem
/// One route as the kernel answered an RTM_GETROUTE request for a destination.
package struct RouteEntry: Sendable, Hashable {
    package var type: RouteType
    package var table: UInt32
    /// The prefix length of the matching FIB entry (only meaningful for a FIB-match request).
    package var prefixLength: Int
    package var outputInterface: Int?
    package var gateways: [IPAddress]
    package var preferredSource: IPAddress?
    /// `RTNH_F_LINKDOWN` on the next hop (only reported for FIB-match requests).
    package var isLinkDown: Bool
    /// The route's metric (`RTA_PRIORITY`); lower is preferred.
    package var metric: UInt32 = 0
    /// How long the route had left when the kernel answered (`RTA_CACHEINFO`'s `rta_expires`:
    /// IPv6 routes learnt from Router Advertisements); nil for a route that does not expire.
    package var expiresIn: Duration? = nil

    package init(type: RouteType, table: UInt32, prefixLength: Int, outputInterface: Int? = nil, gateways: [IPAddress], preferredSource: IPAddress? = nil, isLinkDown: Bool, metric: UInt32 = 0, expiresIn: Duration? = nil) {
        self.type = type
        self.table = table
        self.prefixLength = prefixLength
        self.outputInterface = outputInterface
        self.gateways = gateways
        self.preferredSource = preferredSource
        self.isLinkDown = isLinkDown
        self.metric = metric
        self.expiresIn = expiresIn
    }
}
