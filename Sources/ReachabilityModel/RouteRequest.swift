import ReachabilitySystem
/// One RTM_GETROUTE question: what `ip route get DESTINATION [from SOURCE] [oif IF] [fibmatch]` asks.
package struct RouteRequest: Sendable, Hashable {
    package var destination: IPAddress
    package var source: IPAddress?
    package var outputInterface: Int?
    /// `RTM_F_FIB_MATCH`: answer with the matching FIB entry (its prefix, table, nexthop flags)
    /// instead of the resolved route.
    package var fibMatch: Bool = false

    /// The addresses' words and one for the rest (see `IPAddress.hash(into:)`).
    package func hash(into hasher: inout Hasher) {
        hasher.combine(destination)
        if let source { hasher.combine(source) }
        let interface = UInt64(UInt32(truncatingIfNeeded: outputInterface ?? 0))
        hasher.combine(interface << 2 | (source == nil ? 0 : 2) | (fibMatch ? 1 : 0))
    }

    package init(destination: IPAddress, source: IPAddress? = nil, outputInterface: Int? = nil, fibMatch: Bool = false) {
        self.destination = destination
        self.source = source
        self.outputInterface = outputInterface
        self.fibMatch = fibMatch
    }
}
