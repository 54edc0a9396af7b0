/// One route as the kernel answered an RTM_GETROUTE request for a destination.
struct RouteEntry: Sendable, Hashable {
    var type: RouteType
    var table: UInt32
    /// The prefix length of the matching FIB entry (only meaningful for a FIB-match request).
    var prefixLength: Int
    var outputInterface: Int?
    var gateways: [IPAddress]
    var preferredSource: IPAddress?
    /// `RTNH_F_LINKDOWN` on the next hop (only reported for FIB-match requests).
    var isLinkDown: Bool
    /// The route's metric (`RTA_PRIORITY`); lower is preferred.
    var metric: UInt32 = 0
    /// How long the route had left when the kernel answered (`RTA_CACHEINFO`'s `rta_expires`:
    /// IPv6 routes learnt from Router Advertisements); nil for a route that does not expire.
    var expiresIn: Duration? = nil
}
