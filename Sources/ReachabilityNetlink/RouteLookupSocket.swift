import ReachabilityModel
import ReachabilitySystem
import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// The engine's second socket: asks the kernel for the route of a destination.
///
/// The request is built by hand into a buffer the socket owns, sent with one `sendmsg`, and the
/// answer read with one `recvmsg` into another owned buffer and parsed by `RouteMessageParser`:
/// no allocation but the answer's own, two system calls, and the kernel's exact errno survives
/// (libnl's `rtnl_route_lookup` folds EHOSTUNREACH and ENETUNREACH into one code and exists only
/// from 3.6; `nl_recv` peeks before it reads and allocates a buffer each time). The libnl socket
/// stays for the dumps that refill the caches after an overrun (`nl_cache_refill`): it joined no
/// multicast group. Used only from the engine's loop.
package final class RouteLookupSocket {
    private let socket: OpaquePointer
    private let descriptor: Int32
    private var sequence: UInt32 = 1
    /// The gateways of the last route answered, by family: a default route's answer names the
    /// same router again and again, and shares this array rather than allocating one each time.
    private var recentGateways: (ipv4: [IPAddress], ipv6: [IPAddress]) = ([], [])
    /// Where each request is built; `RouteRequest.maximumMessageLength` bytes.
    private let requestBuffer: UnsafeMutableRawBufferPointer
    /// Where a pipelined batch of requests is built, one after another.
    private let batchBuffer: UnsafeMutableRawBufferPointer
    /// Where each answer is read. An RTM_GETROUTE answer is well under 4 KiB; a datagram longer
    /// than this buffer is reported as EIO rather than read in part.
    private let receiveBuffer: UnsafeMutableRawBufferPointer

    /// The size of the receive buffer.
    package static let receiveBufferSize = 32 << 10

    /// Opens and connects the socket in the calling thread's namespace.
    package init() throws(NetlinkError) {
        guard let socket = nl_socket_alloc() else { throw .noMemory("nl_socket_alloc") }
        do {
            try checkResource("nl_connect", "engine's route lookup socket") { nl_connect(socket, NETLINK_ROUTE) }
            try SetupFaults.trip(.lookupSocket)
        } catch {
            nl_socket_free(socket)
            throw error
        }
        self.socket = socket
        descriptor = nl_socket_get_fd(socket)
        requestBuffer = .allocate(byteCount: RouteRequest.maximumMessageLength, alignment: 8)
        batchBuffer = .allocate(byteCount: RouteRequest.maximumMessageLength * Self.pipelineDepth, alignment: 8)
        receiveBuffer = .allocate(byteCount: Self.receiveBufferSize, alignment: 8)
        // nl_cache_refill reads dumps through libnl's callbacks: believe only the kernel there too.
        nl_socket_modify_cb(socket, NL_CB_MSG_IN, NL_CB_CUSTOM, { message, _ in
            guard let message, let sender = nlmsg_get_src(message), sender.pointee.nl_pid == 0 else {
                return Int32(NL_SKIP.rawValue)
            }
            return Int32(NL_OK.rawValue)
        }, nil)
        // The kernel answers a route request at once; a bound wait keeps a broken kernel from hanging us.
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        nl_socket_free(socket)  // closes the descriptor too
        requestBuffer.deallocate()
        batchBuffer.deallocate()
        receiveBuffer.deallocate()
    }

    /// The libnl socket, for `nl_cache_refill`; it never leaves `Netlink/`.
    package var netlinkSocket: OpaquePointer { socket }

    /// Asks the kernel for the route of `request`.
    ///
    /// - Returns: the route, or the errno the kernel refused with. A failure of the socket
    ///   itself is reported as `.failure` too: `sendmsg`'s errno, ETIMEDOUT when no answer came
    ///   within the receive timeout, EIO for any other receive failure or a malformed answer.
    package func lookup(_ request: RouteRequest) -> RouteAnswer {
        let answer = ask(request)
        guard let deleted = unconfirmedDeletion,
              deleted.mayBe(answer, family: request.destination.family, fibMatch: request.fibMatch) else { return answer }
        confirmDeletion()
        return ask(request)
    }

    /// A route deletion the kernel announced and may not have finished, not waited for
    /// (`awaitRoutingLock`) when it was read: an answer that may be that route is asked again
    /// once the kernel has finished. Waiting only then, as the truthful floor does, costs a
    /// route deletion no wait at all in nearly every case: the kernel has long removed the
    /// route when the lookup comes. Any wait for the routing lock confirms it.
    package var unconfirmedDeletion: DeletedRoute?

    /// Waits for the kernel to finish what it was doing, for an answer that may be the route
    /// `unconfirmedDeletion` names. - Returns: false when the wait failed.
    @discardableResult
    private func confirmDeletion() -> Bool {
        deletionConfirmations += 1
        return awaitRoutingLock()
    }

    /// How many times an answer was asked again for a route deletion not yet confirmed.
    package private(set) var deletionConfirmations = 0

    private func ask(_ request: RouteRequest) -> RouteAnswer {
        sequence &+= 1
        if sequence == 0 { sequence = 1 }
        // Our own sequence numbers, not libnl's counter, so libnl's own seq check on this
        // socket (used by nl_cache_refill) stays in step.
        let length = request.encode(into: requestBuffer, sequence: sequence, port: nl_socket_get_local_port(socket))
        if let failure = send(requestBuffer, length: length) { return failure }
        return receiveAnswer(sequence: sequence)
    }

    /// How many requests one `sendmsg` carries in `lookup(_:)` of many. Their answers wait in the
    /// socket's receive queue until read; 32 of them (about 1 KiB each with overhead) fit well
    /// inside the default 208 KiB, so the kernel never drops one for want of room.
    package static let pipelineDepth = 32

    /// Asks for the routes of many requests, `pipelineDepth` to a `sendmsg`: the kernel handles
    /// every message of a datagram in turn and queues one answer each, which are then read one
    /// `recvmsg` apiece. Half the system calls of asking one by one, and no wait between asks.
    ///
    /// - Returns: the answers in the order of `requests`, exactly what `lookup(_:)` would give for
    ///   each: any request whose answer a batch did not bring (the socket failed, an answer was
    ///   lost) is asked again on its own.
    package func lookup(_ requests: [RouteRequest]) -> [RouteAnswer] {
        var answers = [RouteAnswer?](repeating: nil, count: requests.count)
        var start = 0
        while start < requests.count {
            let end = min(start + Self.pipelineDepth, requests.count)
            askBatch(requests, start..<end, into: &answers)
            start = end
        }
        if let deleted = unconfirmedDeletion {
            let stale = requests.indices.filter { position in
                answers[position].map { deleted.mayBe($0, family: requests[position].destination.family,
                                                      fibMatch: requests[position].fibMatch) } ?? false
            }
            if !stale.isEmpty {
                confirmDeletion()
                for position in stale { answers[position] = nil }
            }
        }
        return answers.enumerated().map { position, answer in answer ?? lookup(requests[position]) }
    }

    private func askBatch(_ requests: [RouteRequest], _ range: Range<Int>, into answers: inout [RouteAnswer?]) {
        if sequence > UInt32.max - UInt32(Self.pipelineDepth) - 1 { sequence = 0 }  // a batch's numbers never wrap
        let first = sequence &+ 1
        let port = nl_socket_get_local_port(socket)
        var length = 0
        for (offset, position) in range.enumerated() {
            let slot = UnsafeMutableRawBufferPointer(rebasing: batchBuffer[length...])
            length += RouteMessageParser.align(requests[position].encode(into: slot, sequence: first &+ UInt32(offset), port: port))
        }
        sequence = first &+ UInt32(range.count - 1)
        guard send(batchBuffer, length: length) == nil else { return }
        var missing = range.count
        // Each answer is its own datagram; stale ones of an abandoned request are skipped. Bounded.
        for _ in 0..<(range.count * 2 + 16) where missing > 0 {
            var peer = sockaddr_nl()
            guard case .datagram(let count) = receive(from: &peer) else { return }
            guard peer.nl_pid == 0 else { continue }
            forEachMessage(in: count) { sequenceNumber, answer in
                let offset = Int(sequenceNumber &- first)
                guard sequenceNumber &- first < UInt32(range.count), answers[range.lowerBound + offset] == nil else { return }
                answers[range.lowerBound + offset] = answer
                missing -= 1
            }
        }
    }

    /// Returns once the kernel has finished the configuration change it may be in the middle of.
    ///
    /// The kernel announces some changes before it has finished them, under its routing lock
    /// (RTNL): IPv4 sends RTM_DELROUTE and RTM_DELADDR before it removes the route or the address's
    /// routes, and flushes a downed link's routes after announcing the link, with no message. A
    /// route lookup takes no lock and may meet the old routes. A request the kernel handles under
    /// that lock cannot be handled before the operation is over: RTM_GETQDISC of the loopback's
    /// root qdisc (ifindex 1 in every namespace), with an acknowledgement, answered or refused,
    /// is that request, and its answer is small whatever the host's size. Every message the
    /// operation sent is in the event socket by then.
    ///
    /// - Returns: false when the socket failed or no answer came within the receive timeout: the
    ///   caller cannot know the operation is over and must look again later.
    package func awaitRoutingLock() -> Bool {
        sequence &+= 1
        if sequence == 0 { sequence = 1 }
        let expected = sequence
        let length = MemoryLayout<nlmsghdr>.size + MemoryLayout<tcmsg>.size
        requestBuffer.initializeMemory(as: UInt8.self, repeating: 0)
        var header = nlmsghdr()
        header.nlmsg_len = UInt32(length)
        header.nlmsg_type = UInt16(RTM_GETQDISC)
        header.nlmsg_flags = UInt16(NLM_F_REQUEST | NLM_F_ACK)
        header.nlmsg_seq = expected
        header.nlmsg_pid = nl_socket_get_local_port(socket)
        var message = tcmsg()
        message.tcm_ifindex = 1
        message.tcm_parent = 0xFFFF_FFFF  // TC_H_ROOT
        requestBuffer.storeBytes(of: header, as: nlmsghdr.self)
        requestBuffer.storeBytes(of: message, toByteOffset: MemoryLayout<nlmsghdr>.size, as: tcmsg.self)
        guard send(requestBuffer, length: length) == nil else { return false }
        // Bounded: the qdisc's own answer (when the kernel reports it) and stale answers come first.
        for _ in 0..<16 {
            var peer = sockaddr_nl()
            guard case .datagram(let count) = receive(from: &peer) else { return false }
            guard peer.nl_pid == 0 else { continue }
            if Self.acknowledges(sequence: expected, in: UnsafeRawBufferPointer(rebasing: receiveBuffer[..<count])) {
                unconfirmedDeletion = nil
                return true
            }
        }
        return false
    }

    /// Whether `datagram` holds the acknowledgement (or refusal) of request `sequence`.
    private static func acknowledges(sequence: UInt32, in datagram: UnsafeRawBufferPointer) -> Bool {
        var found = false
        forEachHeader(in: datagram) { type, number, _ in
            if Int32(type) == NLMSG_ERROR, number == sequence { found = true }
        }
        return found
    }

    /// The answers in the first `count` bytes of the receive buffer, with their sequence numbers.
    private func forEachMessage(in count: Int, _ body: (UInt32, RouteAnswer) -> Void) {
        Self.forEachHeader(in: UnsafeRawBufferPointer(rebasing: receiveBuffer[..<count])) { type, sequence, payload in
            if let answer = answer(type: type, payload: payload) { body(sequence, answer) }
        }
    }

    /// Each message of `datagram`: its type, sequence number and payload (nlmsg_ok / nlmsg_next:
    /// a header, a length that covers it and stays inside; the walk ends at the first that is not).
    private static func forEachHeader(in datagram: UnsafeRawBufferPointer,
                                      _ body: (UInt16, UInt32, UnsafeRawBufferPointer) -> Void) {
        var offset = 0
        while datagram.count - offset >= messageHeaderLength {
            let length = Int(datagram.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            guard length >= messageHeaderLength, length <= datagram.count - offset else { return }
            body(datagram.loadUnaligned(fromByteOffset: offset + 4, as: UInt16.self),
                 datagram.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self),
                 UnsafeRawBufferPointer(rebasing: datagram[offset + messageHeaderLength ..< offset + length]))
            offset += RouteMessageParser.align(length)
        }
    }

    /// Sends the first `length` bytes of `buffer` to the kernel, retrying EINTR.
    ///
    /// `sendmsg`, as libnl's `nl_send` did, rather than `send`: the benchmarks count lookups as
    /// `sendmsg` calls and their own route changes as `sendto` (BENCHMARKS.md). One call either way.
    private func send(_ buffer: UnsafeMutableRawBufferPointer, length: Int) -> RouteAnswer? {
        var kernel = sockaddr_nl()
        kernel.nl_family = sa_family_t(AF_NETLINK)
        var vector = iovec(iov_base: buffer.baseAddress, iov_len: length)
        while true {
            let sent = NetlinkMessageHeader.with(peer: &kernel, vector: &vector) { sendmsg(descriptor, &$0, 0) }
            if sent == length { return nil }
            if sent >= 0 { return .failure(errno: EIO) }  // a datagram goes whole or not at all
            if errno != EINTR { return .failure(errno: errno == 0 ? EIO : errno) }
        }
    }

    private func receiveAnswer(sequence: UInt32) -> RouteAnswer {
        // Bounded: an answer is one message; stale ones from an abandoned request are skipped.
        for _ in 0..<16 {
            var peer = sockaddr_nl()
            let count: Int
            switch receive(from: &peer) {
            case .datagram(let length): count = length
            case .failed(let failure): return failure
            }
            guard peer.nl_pid == 0 else { continue }  // only the kernel answers
            var found: RouteAnswer?
            forEachMessage(in: count) { number, answer in
                if number == sequence, found == nil { found = answer }
            }
            if let found { return found }
        }
        return .failure(errno: EIO)
    }

    /// `NLMSG_HDRLEN`.
    private static let messageHeaderLength = MemoryLayout<nlmsghdr>.size

    /// Reads one datagram into the receive buffer, with no `MSG_PEEK`, retrying EINTR.
    ///
    /// `MSG_TRUNC` in the flags makes netlink return the datagram's real length, so a datagram
    /// longer than the buffer shows (and is EIO) instead of being parsed in part. `recvmsg`
    /// rather than `recvfrom` for the same reason as `send(_:)`: the benchmarks count it.
    private func receive(from peer: inout sockaddr_nl) -> Received {
        var vector = iovec(iov_base: receiveBuffer.baseAddress, iov_len: receiveBuffer.count)
        while true {
            var truncated = false
            let count = NetlinkMessageHeader.with(peer: &peer, vector: &vector) { message in
                let count = recvmsg(descriptor, &message, Int32(MSG_TRUNC))
                truncated = message.msg_flags & Int32(MSG_TRUNC) != 0
                return count
            }
            if count > receiveBuffer.count || (count > 0 && truncated) { return .failed(.failure(errno: EIO)) }
            if count > 0 { return .datagram(count) }
            if count < 0, errno == EINTR { continue }
            // SO_RCVTIMEO expired: EAGAIN.
            let timedOut = count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            return .failed(.failure(errno: timedOut ? ETIMEDOUT : EIO))
        }
    }

    /// What one receive gave: a datagram of that many bytes, or a failure that ends the lookup.
    private enum Received {
        case datagram(Int)
        case failed(RouteAnswer)
    }

    /// The answer in one message of our sequence, or nil to keep reading (an acknowledgement,
    /// or a type that answers nothing).
    private func answer(type: UInt16, payload: UnsafeRawBufferPointer) -> RouteAnswer? {
        switch Int32(type) {
        case NLMSG_ERROR:
            // struct nlmsgerr: the negative errno first, then the request it answers.
            guard payload.count >= MemoryLayout<Int32>.size else { return .failure(errno: EIO) }
            let error = payload.loadUnaligned(as: Int32.self)
            return error == 0 ? nil : .failure(errno: 0 &- error)
        case Int32(RTM_NEWROUTE):
            let isIPv4 = payload.first.map { Int32($0) } == AF_INET
            let recent = isIPv4 ? recentGateways.ipv4 : recentGateways.ipv6
            guard let entry = RouteMessageParser.entry(fromPayload: payload, reusing: recent) else { return .failure(errno: EIO) }
            if !entry.gateways.isEmpty {
                if isIPv4 { recentGateways.ipv4 = entry.gateways } else { recentGateways.ipv6 = entry.gateways }
            }
            return .route(entry)
        default:
            return nil
        }
    }
}
