/// Which paths a name server serves: `supportsDNS` is this scope applied to a path's interface.
///
/// A server in `/etc/resolv.conf` serves every path; behind systemd-resolved's stub, an upstream
/// server that systemd-networkd lists for one link (its link state file's `DNS=`) serves only the
/// paths over that link, and one networkd lists for no link (resolved's global servers, or those a
/// link manager other than networkd gave it) serves every path.
package enum NameServerScope: Sendable, Hashable {
    /// No server: resolv.conf names none, or resolved's stub has no upstream server.
    case none
    /// A server serves every path.
    case global
    /// Servers serve only the paths over these interfaces (by index).
    case links(Set<Int>)

    /// Whether a server serves a path that leaves by `interfaceIndex`; a path with no interface has none.
    package func serves(interfaceIndex: Int?) -> Bool {
        guard let interfaceIndex else { return false }
        switch self {
        case .none: return false
        case .global: return true
        case .links(let indexes): return indexes.contains(interfaceIndex)
        }
    }

    /// Whether any server exists at all: a name lookup that failed without one says `noDNSServer`.
    package var hasServer: Bool { self != .none }
}
