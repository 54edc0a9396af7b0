import ReachabilitySystem
/// The kernel's link and address state at one moment. Routes are never copied: the route of
/// each target is asked of the kernel (`RouteAnswer`).
package struct KernelSnapshot: Sendable, Equatable {
    package var links: [Int: LinkState] = [:]
    package var addresses: [InterfaceAddress] = []

    package func link(named name: String) -> LinkState? {
        links.values.first { $0.name == name }
    }

    /// Whether some interface holds this address (scope ignored).
    package func owns(_ address: IPAddress) -> Bool {
        addresses.contains { $0.address.sameBytes(as: address) }
    }

    /// Indexes of the interfaces that hold at least one address reaching beyond their link:
    /// a container's host-side veth, with only its IPv6 link-local address, is not among them.
    package var indexesWithRoutableAddress: Set<Int> {
        var indexes = Set<Int>()
        for address in addresses where address.reachesBeyondLink { indexes.insert(address.interfaceIndex) }
        return indexes
    }

    package init(links: [Int: LinkState] = [:], addresses: [InterfaceAddress] = []) {
        self.links = links
        self.addresses = addresses
    }
}
