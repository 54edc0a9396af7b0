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
///
/// One `recvmmsg` reads up to eight datagrams: a lone message, the common wake-up, is read and
/// known to be alone in one system call, with no second read that meets EAGAIN, and so is the
/// burst of a link that went down (its link, address and route messages) most often.
final class EventDatagrams {
    /// What one read found.
    enum Read {
        /// `count` datagrams (`datagram(at:)`), fewer than `slotCount` when the socket is now empty.
        case received(count: Int)
        /// Nothing queued.
        case empty
        /// Events were lost (ENOBUFS): the caches need a refill.
        case overrun
        /// Another error: the read stops until the next wake-up.
        case failed
    }

    /// One datagram read: its bytes, valid until the next read, and its sender's address.
    struct Datagram {
        let bytes: UnsafeMutableRawPointer
        let length: Int
        let sender: sockaddr_nl
        /// Longer than its slot: cut, and a message of it lost.
        let truncated: Bool
    }

    /// Datagrams one read takes at most.
    static let slotCount = 8

    private let size: Int
    private let storage: UnsafeMutableRawBufferPointer
    private let headers: UnsafeMutablePointer<CNetlink_mmsghdr>
    private let vectors: UnsafeMutablePointer<iovec>
    private let senders: UnsafeMutablePointer<sockaddr_nl>

    /// - Parameter size: the largest datagram read whole.
    init(size: Int) {
        self.size = size
        storage = .allocate(byteCount: size * Self.slotCount, alignment: MemoryLayout<nlmsghdr>.alignment)
        headers = .allocate(capacity: Self.slotCount)
        vectors = .allocate(capacity: Self.slotCount)
        senders = .allocate(capacity: Self.slotCount)
        for slot in 0..<Self.slotCount {
            vectors[slot] = iovec(iov_base: storage.baseAddress! + slot * size, iov_len: size)
            senders[slot] = sockaddr_nl()
            headers[slot] = CNetlink_mmsghdr()
        }
    }

    deinit {
        storage.deallocate()
        headers.deallocate()
        vectors.deallocate()
        senders.deallocate()
    }

    /// Reads what is queued on `descriptor`, up to `slotCount` datagrams, without waiting.
    func read(from descriptor: Int32) -> Read {
        for slot in 0..<Self.slotCount {
            senders[slot] = sockaddr_nl()
            headers[slot] = CNetlink_mmsghdr()
            headers[slot].msg_hdr.msg_name = UnsafeMutableRawPointer(senders + slot)
            headers[slot].msg_hdr.msg_namelen = socklen_t(MemoryLayout<sockaddr_nl>.size)
            headers[slot].msg_hdr.msg_iov = vectors + slot
            headers[slot].msg_hdr.msg_iovlen = 1
        }
        while true {
            let count = CNetlink_recvmmsg(descriptor, headers, UInt32(Self.slotCount), Int32(MSG_DONTWAIT))
            if count < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .empty
                case ENOBUFS: return .overrun
                default: return .failed
                }
            }
            return count == 0 ? .empty : .received(count: Int(count))
        }
    }

    /// Datagram `slot` (below the count the last read gave).
    func datagram(at slot: Int) -> Datagram {
        let header = headers[slot]
        return Datagram(bytes: storage.baseAddress! + slot * size, length: Int(header.msg_len), sender: senders[slot],
                        truncated: header.msg_hdr.msg_flags & Int32(MSG_TRUNC) != 0)
    }

    /// Calls `body` with each message of `datagram`.
    func forEachMessage(in datagram: Datagram, _ body: (UnsafeMutablePointer<nlmsghdr>) -> Void) {
        var remaining = Int32(datagram.length)
        var header = datagram.bytes.assumingMemoryBound(to: nlmsghdr.self)
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

    /// The offer of the calling thread (each engine drains on its own loop's thread); nil when
    /// the process has no thread-specific key left (then nothing is handed over).
    private static let offerKey: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// Makes libnl's reads on `socket` take the datagram `handOver` offers instead of reading the
    /// socket: once, then nothing (which ends `nl_cache_mngr_data_ready`'s loop).
    ///
    /// - Returns: false when it cannot (no thread-specific key left): a datagram for libnl is then
    ///   lost to it, and the caller refills the caches from dumps instead.
    static func installReceive(on socket: OpaquePointer) -> Bool {
        guard offerKey != nil, let callbacks = nl_socket_get_cb(socket) else { return false }
        defer { nl_cb_put(callbacks) }
        nl_cb_overwrite_recv(callbacks) { _, source, buffer, credentials in
            guard let key = EventDatagrams.offerKey, let raw = pthread_getspecific(key) else { return 0 }
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
        return true
    }

    /// Runs `body` (a call of `nl_cache_mngr_data_ready`) with `datagram` offered to libnl's read.
    func handOver<Result>(_ datagram: Datagram, _ body: () -> Result) -> Result {
        var offer = Offer(bytes: UnsafeRawPointer(datagram.bytes), length: datagram.length, sender: datagram.sender)
        return withUnsafeMutablePointer(to: &offer) { offer in
            guard let key = Self.offerKey else { return body() }  // never installed: see `installReceive`
            pthread_setspecific(key, offer)
            defer { pthread_setspecific(key, nil) }
            return body()
        }
    }
}
