/// A router as the neighbour table names it: a route's gateway and the link it is reached on.
/// IPv6 gateways are mostly link-local, so the address alone does not name one.
struct RouterNeighbour: Sendable, Hashable {
    var interfaceIndex: Int
    var address: IPAddress
}
