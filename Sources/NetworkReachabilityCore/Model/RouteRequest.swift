/// One RTM_GETROUTE question: what `ip route get DESTINATION [from SOURCE] [oif IF] [fibmatch]` asks.
struct RouteRequest: Sendable, Hashable {
    var destination: IPAddress
    var source: IPAddress?
    var outputInterface: Int?
    /// `RTM_F_FIB_MATCH`: answer with the matching FIB entry (its prefix, table, nexthop flags)
    /// instead of the resolved route.
    var fibMatch: Bool = false
}
