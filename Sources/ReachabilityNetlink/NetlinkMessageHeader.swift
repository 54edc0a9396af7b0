import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// The `msghdr` of a netlink `sendmsg` or `recvmsg`: one address, one buffer.
enum NetlinkMessageHeader {
    /// Calls `body` with a `msghdr` naming `peer` (the kernel's address to send to, or where the
    /// sender's is read into) and the one buffer `vector`.
    static func with(peer: inout sockaddr_nl, vector: inout iovec, _ body: (inout msghdr) -> Int) -> Int {
        withUnsafeMutablePointer(to: &peer) { name in
            withUnsafeMutablePointer(to: &vector) { vector in
                var message = msghdr()
                message.msg_name = UnsafeMutableRawPointer(name)
                message.msg_namelen = socklen_t(MemoryLayout<sockaddr_nl>.size)
                message.msg_iov = vector
                message.msg_iovlen = 1
                return body(&message)
            }
        }
    }
}
