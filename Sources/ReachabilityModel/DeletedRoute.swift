import ReachabilitySystem
/// A route the kernel announced deleted, as far as telling it apart from an answer takes: the
/// kernel sends RTM_DELROUTE before it removes the route (`fib_table_delete`), so a lookup made
/// at once may still be answered with it. Fixed-size: noting one allocates nothing.
package struct DeletedRoute: Sendable, Equatable {
    package var family: IPAddress.Family
    package var type: RouteType
    package var table: UInt32
    package var prefixLength: Int
    package var metric: UInt32
    package var outputInterface: Int?
    package var gateway: IPAddress?
    /// A route of several next hops: any route answer of its table may be it.
    package var isMultipath: Bool
    /// The request that deleted it (the message's `nlmsg_pid` and `nlmsg_seq`): a message of
    /// another request, read later, means the kernel has finished this one (`DrainResult`).
    package var request: NetlinkRequest?

    package init(family: IPAddress.Family, type: RouteType, table: UInt32, prefixLength: Int, metric: UInt32 = 0,
                 outputInterface: Int? = nil, gateway: IPAddress? = nil, isMultipath: Bool = false,
                 request: NetlinkRequest? = nil) {
        self.family = family
        self.type = type
        self.table = table
        self.prefixLength = prefixLength
        self.metric = metric
        self.outputInterface = outputInterface
        self.gateway = gateway
        self.isMultipath = isMultipath
        self.request = request
    }

    /// Whether `answer`, to a lookup of `family`, may be this route still in place: then the
    /// lookup must be made again once the kernel has finished (`RouteLookupSocket.awaitRoutingLock`).
    /// A route that refuses (`unreachable`, `prohibit`, `blackhole`, `throw`) may be any refusal.
    ///
    /// - Parameter fibMatch: the answer is the FIB entry matched (its prefix length is the
    ///   entry's), not the route resolved for one destination.
    package func mayBe(_ answer: RouteAnswer, family: IPAddress.Family, fibMatch: Bool) -> Bool {
        guard family == self.family else { return false }
        guard case .route(let entry) = answer else { return type != .unicast && type != .local }
        guard entry.table == table, entry.type == type else { return false }
        if isMultipath { return true }
        if fibMatch && entry.prefixLength != prefixLength { return false }
        if metric != 0 && entry.metric != 0 && metric != entry.metric { return false }
        if let outputInterface, entry.outputInterface != outputInterface { return false }
        return entry.gateways.first == gateway
    }
}
