import ReachabilityModel
import ReachabilityNetlink
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// One blocking `getaddrinfo(3)` call, so `/etc/hosts`, `nsswitch.conf` and `resolv.conf` apply
/// as for every other program. Runs on a resolver thread, never on the engine's loop.
package enum SystemResolver {
    // glibc declares these only under _GNU_SOURCE.
    private static let eaiNoData: Int32 = -5
    private static let eaiAddressFamily: Int32 = -9
    /// SOCK_STREAM. Spelled out: its glibc header (bits/socket_type.h) is also pulled in by the
    /// CNetlink shim, and in some builds (the thread sanitizer's) Clang gives the constant to that
    /// module, out of sight of files that import only Glibc.
    private static let streamSocket: Int32 = 1

    package static func resolve(_ name: String, nameServers: inout NameServerConfiguration) -> ResolutionOutcome {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocket  // one entry per address, not one per socket type
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        switch status {
        case 0:
            var addresses: [IPAddress] = []
            var entry = list
            while let current = entry {
                if let sockaddr = current.pointee.ai_addr,
                   let address = try? IPAddress(sockaddr: sockaddr, length: Int(current.pointee.ai_addrlen)),
                   !addresses.contains(address) {
                    addresses.append(address)
                }
                entry = current.pointee.ai_next
            }
            return addresses.isEmpty ? .notFound : .addresses(addresses)
        case EAI_NONAME, eaiNoData, eaiAddressFamily:
            return .notFound
        default:
            // No server at all, or resolved's stub with no upstream: nothing could have answered.
            if !nameServers.refresh().hasServer { return .noNameServer }
            return .temporaryFailure(String(cString: gai_strerror(status)))
        }
    }
}
