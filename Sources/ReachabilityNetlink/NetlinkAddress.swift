import ReachabilityModel
import ReachabilitySystem
import CNetlink
#if canImport(Glibc)
import Glibc
#endif

extension IPAddress {
    /// Copies a libnl `nl_addr` of family AF_INET or AF_INET6; nil for any other.
    package init?(netlinkAddress address: OpaquePointer?) {
        guard let address else { return nil }
        let family = nl_addr_get_family(address)
        let length = Int(nl_addr_get_len(address))
        guard let raw = nl_addr_get_binary_addr(address) else { return nil }
        switch (family, length) {
        case (AF_INET, 4):
            self.init(family: .ipv4, raw: UnsafeRawBufferPointer(start: raw, count: 4))
        case (AF_INET6, 16):
            self.init(family: .ipv6, raw: UnsafeRawBufferPointer(start: raw, count: 16))
        default:
            return nil
        }
    }
}
