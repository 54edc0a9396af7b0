import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// The event socket's datagrams, read by the engine itself rather than by libnl.
///
/// Most datagrams a busy host sends are route, rule, nexthop, neighbour and RA-option messages,
/// which no cache of libnl's takes: `KernelEventSocket` notes those itself and never hands them
/// to libnl, whose read of one (a cloned callback set, a receive buffer allocated, the message
/// copied, a second read for EAGAIN) cost more than all the rest of a quiet turn. A datagram that
/// holds a link or address message goes to libnl's manager as before, through a receive function
/// of ours (`nl_cb_overwrite_recv`) that hands it the datagram already read: the socket is read
/// in one place, and ENOBUFS is seen there.
final class EventDatagrams {
    /// What one read found.
    enum Read {
        /// A datagram of `length` bytes in `bytes`, from `sender`'s port (0: the kernel).
        case datagram(length: Int, sender: sockaddr_nl)
        /// Nothing queued.
        case empty
        /// Events were lost (ENOBUFS), or one was longer than the buffer: the caches need a refill.
        case overrun
        /// Another error: the read stops until the next wake-up.
        case failed
    }

    /// The last datagram read; valid until the next read.
    let bytes: UnsafeMutableRawBufferPointer

    init(size: Int) {
        bytes = .allocate(byteCount: size, alignment: MemoryLayout<nlmsghdr>.alignment)
    }

    deinit { bytes.deallocate() }

    /// Reads one datagram from `descriptor` without waiting.
    func read(from descriptor: Int32) -> Read {
        var sender = sockaddr_nl()
        var vector = iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)
        while true {
            var flags: Int32 = 0
            let length = NetlinkMessageHeader.with(peer: &sender, vector: &vector) { message in
                let length = recvmsg(descriptor, &message, Int32(MSG_DONTWAIT))
                flags = message.msg_flags
                return length
            }
            if length < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .empty
                case ENOBUFS: return .overrun
                default: return .failed
                }
            }
            if length == 0 { return .empty }
            if flags & Int32(MSG_TRUNC) != 0 { return .overrun }
            return .datagram(length: length, sender: sender)
        }
    }

    /// Calls `body` with each message of the datagram read (`length` bytes).
    func forEachMessage(in length: Int, _ body: (UnsafeMutablePointer<nlmsghdr>) -> Void) {
        var remaining = Int32(length)
        var header = bytes.baseAddress!.assumingMemoryBound(to: nlmsghdr.self)
        while nlmsg_ok(header, remaining) != 0 {
            body(header)
            header = nlmsg_next(header, &remaining)
        }
    }

    // MARK: - Handing a datagram to libnl

    /// A datagram offered to libnl's next read on this thread.
    private struct Offer {
        var bytes: UnsafeRawPointer
        var length: Int
        var sender: sockaddr_nl
        var taken = false
    }

    /// The offer of the calling thread (each engine drains on its own loop's thread).
    private static let offerKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for the event socket")
        return key
    }()

    /// Makes libnl's reads on `socket` take the datagram `handOver` offers instead of reading the
    /// socket: once, then nothing (which ends `nl_cache_mngr_data_ready`'s loop).
    static func installReceive(on socket: OpaquePointer) {
        _ = offerKey
        guard let callbacks = nl_socket_get_cb(socket) else { return }
        nl_cb_overwrite_recv(callbacks) { _, source, buffer, credentials in
            guard let raw = pthread_getspecific(EventDatagrams.offerKey) else { return 0 }
            let offer = raw.assumingMemoryBound(to: Offer.self)
            guard !offer.pointee.taken else { return 0 }
            // libnl frees what it was given.
            guard let copy = malloc(offer.pointee.length) else { return -Int32(NLE_NOMEM) }
            memcpy(copy, offer.pointee.bytes, offer.pointee.length)
            offer.pointee.taken = true
            source?.pointee = offer.pointee.sender
            buffer?.pointee = copy.assumingMemoryBound(to: UInt8.self)
            credentials?.pointee = nil
            return Int32(offer.pointee.length)
        }
        nl_cb_put(callbacks)
    }

    /// Runs `body` (a call of `nl_cache_mngr_data_ready`) with the datagram read (`length` bytes
    /// from `sender`) offered to libnl's read.
    func handOver<Result>(length: Int, from sender: sockaddr_nl, _ body: () -> Result) -> Result {
        var offer = Offer(bytes: UnsafeRawPointer(bytes.baseAddress!), length: length, sender: sender)
        return withUnsafeMutablePointer(to: &offer) { offer in
            pthread_setspecific(Self.offerKey, offer)
            defer { pthread_setspecific(Self.offerKey, nil) }
            return body()
        }
    }
}
