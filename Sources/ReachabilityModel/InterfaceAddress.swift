import ReachabilitySystem
/// An address that an interface holds.
package struct InterfaceAddress: Sendable, Hashable {
    package var interfaceIndex: Int
    package var address: IPAddress
    package var prefixLength: Int
    /// The kernel's `ifa_scope`: 0 universe, 200 site, 253 link (IPv6 `fe80::/10`), 254 host.
    package var scope: UInt8 = 0

    /// `RT_SCOPE_LINK`: addresses at or above it do not reach past their own link.
    package static let linkScope: UInt8 = 253

    /// Whether the address can carry traffic beyond its own link (scope universe or site).
    package var reachesBeyondLink: Bool { scope < Self.linkScope }

    package init(interfaceIndex: Int, address: IPAddress, prefixLength: Int, scope: UInt8 = 0) {
        self.interfaceIndex = interfaceIndex
        self.address = address
        self.prefixLength = prefixLength
        self.scope = scope
    }
}
