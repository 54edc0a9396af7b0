/// An address that an interface holds.
struct InterfaceAddress: Sendable, Hashable {
    var interfaceIndex: Int
    var address: IPAddress
    var prefixLength: Int
    /// The kernel's `ifa_scope`: 0 universe, 200 site, 253 link (IPv6 `fe80::/10`), 254 host.
    var scope: UInt8 = 0

    /// `RT_SCOPE_LINK`: addresses at or above it do not reach past their own link.
    static let linkScope: UInt8 = 253

    /// Whether the address can carry traffic beyond its own link (scope universe or site).
    var reachesBeyondLink: Bool { scope < Self.linkScope }
}
