import ReachabilityModel
import ReachabilitySystem
import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// Checks that descriptors are free before a libnl call whose own failure path is unsafe.
///
/// libnl 3.5 to 3.11 (`nl_cache_mngr_alloc`) free the manager's dump socket twice when its
/// second `nl_connect` fails, which aborts in `nl_cb_put` (`BUG at lib/handlers.c:253`); 3.12
/// fixed it. The descriptors are the one resource that fails there in practice (EMFILE), so the
/// engine opens the sockets libnl is about to open, closes them, and lets libnl take them again:
/// short of descriptors, the process gets a typed error instead of an abort. Another thread that
/// takes a descriptor between the check and libnl's own open can still meet the old bug: the
/// window is two system calls wide.
package enum DescriptorReserve {
    /// Opens and closes `count` netlink route sockets.
    ///
    /// - Throws: the `socket` errno (EMFILE, ENFILE, ENOBUFS, ENOMEM), naming `resource`.
    package static func ensure(_ count: Int, for resource: String) throws(NetlinkError) {
        var opened: [Int32] = []
        defer { opened.forEach(Syscalls.close) }
        for _ in 0..<count {
            let fd = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), NETLINK_ROUTE)
            guard fd >= 0 else { throw .system("socket(AF_NETLINK) for the \(resource)", errno: errno) }
            opened.append(fd)
        }
    }
}
