import ReachabilitySystem
/// A router as the neighbour table names it: a route's gateway and the link it is reached on.
/// IPv6 gateways are mostly link-local, so the address alone does not name one.
package struct RouterNeighbour: Sendable, Hashable {
    package var interfaceIndex: Int
    package var address: IPAddress

    package init(interfaceIndex: Int, address: IPAddress) {
        self.interfaceIndex = interfaceIndex
        self.address = address
    }
}
