import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// One RTM_GETROUTE question: what `ip route get DESTINATION [from SOURCE] [oif IF] [fibmatch]` asks.
struct RouteRequest: Sendable, Hashable {
    var destination: IPAddress
    var source: IPAddress?
    var outputInterface: Int?
    /// `RTM_F_FIB_MATCH`: answer with the matching FIB entry (its prefix, table, nexthop flags)
    /// instead of the resolved route.
    var fibMatch: Bool = false
}

/// The engine's second socket: asks the kernel for the route of a destination.
///
/// The request is built by hand and the answer parsed with `rtnl_route_parse`, so the kernel's
/// exact errno survives (libnl's `rtnl_route_lookup` folds EHOSTUNREACH and ENETUNREACH into one
/// code and exists only from 3.6). It also serves the dumps that refill the caches after an
/// overrun: it joined no multicast group. Used only from the engine's queue.
final class RouteLookupSocket {
    private let socket: OpaquePointer
    private var sequence: UInt32 = 1

    /// Opens and connects the socket in the calling thread's namespace.
    init() throws(NetlinkError) {
        guard let socket = nl_socket_alloc() else { throw .noMemory("nl_socket_alloc") }
        do {
            try check("nl_connect", nl_connect(socket, NETLINK_ROUTE))
        } catch {
            nl_socket_free(socket)
            throw error
        }
        self.socket = socket
        // nl_cache_refill reads dumps through libnl's callbacks: believe only the kernel there too.
        nl_socket_modify_cb(socket, NL_CB_MSG_IN, NL_CB_CUSTOM, { message, _ in
            guard let message, let sender = nlmsg_get_src(message), sender.pointee.nl_pid == 0 else {
                return Int32(NL_SKIP.rawValue)
            }
            return Int32(NL_OK.rawValue)
        }, nil)
        // The kernel answers a route request at once; a bound wait keeps a broken kernel from hanging us.
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        _ = setsockopt(nl_socket_get_fd(socket), SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        nl_socket_free(socket)  // closes the descriptor too
    }

    /// The libnl socket, for `nl_cache_refill`.
    var netlinkSocket: OpaquePointer { socket }

    /// Asks the kernel for the route of `request`.
    ///
    /// - Returns: the route, or the errno the kernel refused with. A failure of the socket
    ///   itself is reported as `.failure` with its errno, as no route would be.
    func lookup(_ request: RouteRequest) -> RouteAnswer {
        sequence &+= 1
        if sequence == 0 { sequence = 1 }
        let sequence = self.sequence
        guard let message = nlmsg_alloc_simple(Int32(RTM_GETROUTE), Int32(NLM_F_REQUEST)) else {
            return .failure(errno: ENOMEM)
        }
        defer { nlmsg_free(message) }

        let family = request.destination.family
        var header = rtmsg()
        header.rtm_family = UInt8(family.addressFamily)
        header.rtm_dst_len = UInt8(family.byteCount * 8)
        if let source = request.source, source.family == family {
            header.rtm_src_len = UInt8(family.byteCount * 8)
        }
        if request.fibMatch {
            header.rtm_flags = UInt32(RTM_F_FIB_MATCH)
        }
        guard nlmsg_append(message, &header, MemoryLayout<rtmsg>.size, Int32(NLMSG_ALIGNTO)) == 0 else {
            return .failure(errno: ENOMEM)
        }
        var ok = request.destination.bytes.withUnsafeBytes {
            nla_put(message, Int32(RTA_DST.rawValue), Int32($0.count), $0.baseAddress) == 0
        }
        if let source = request.source, source.family == family {
            ok = ok && source.bytes.withUnsafeBytes {
                nla_put(message, Int32(RTA_SRC.rawValue), Int32($0.count), $0.baseAddress) == 0
            }
        }
        if let oif = request.outputInterface {
            ok = ok && nla_put_u32(message, Int32(RTA_OIF.rawValue), UInt32(oif)) == 0
        }
        guard ok else { return .failure(errno: ENOMEM) }

        // Our own sequence numbers, not libnl's counter, so libnl's own seq check on this
        // socket (used by nl_cache_refill) stays in step.
        let sent = nlmsg_hdr(message)!
        sent.pointee.nlmsg_seq = sequence
        sent.pointee.nlmsg_pid = nl_socket_get_local_port(socket)
        if nl_send(socket, message) < 0 {
            return .failure(errno: errno == 0 ? EIO : errno)
        }
        return receiveAnswer(sequence: sequence)
    }

    private func receiveAnswer(sequence: UInt32) -> RouteAnswer {
        // Bounded: an answer is one message; stale ones from an abandoned request are skipped.
        for _ in 0..<16 {
            var peer = sockaddr_nl()
            var buffer: UnsafeMutablePointer<UInt8>?
            let count = nl_recv(socket, &peer, &buffer, nil)
            defer { free(buffer) }
            if count <= 0 {
                return .failure(errno: count == -Int32(NLE_AGAIN) ? ETIMEDOUT : EIO)
            }
            guard peer.nl_pid == 0, let buffer else { continue }  // only the kernel answers
            var remaining = count
            var header: UnsafeMutablePointer<nlmsghdr>? = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: nlmsghdr.self)
            while let current = header, nlmsg_ok(current, remaining) != 0 {
                if current.pointee.nlmsg_seq == sequence {
                    if let answer = Self.answer(from: current) { return answer }
                }
                header = nlmsg_next(current, &remaining)
            }
        }
        return .failure(errno: EIO)
    }

    private static func answer(from header: UnsafeMutablePointer<nlmsghdr>) -> RouteAnswer? {
        switch Int32(header.pointee.nlmsg_type) {
        case NLMSG_ERROR:
            guard let payload = nlmsg_data(header) else { return .failure(errno: EIO) }
            let error = payload.assumingMemoryBound(to: nlmsgerr.self).pointee.error
            return error == 0 ? nil : .failure(errno: -error)
        case Int32(RTM_NEWROUTE):
            var route: OpaquePointer?
            guard rtnl_route_parse(header, &route) == 0, let route else { return .failure(errno: EIO) }
            defer { rtnl_route_put(route) }
            return .route(entry(from: route))
        default:
            return nil
        }
    }

    private static func entry(from route: OpaquePointer) -> RouteEntry {
        var entry = RouteEntry(
            type: RouteType(rtnType: rtnl_route_get_type(route)),
            table: rtnl_route_get_table(route),
            prefixLength: rtnl_route_get_dst(route).map { Int(nl_addr_get_prefixlen($0)) } ?? 0,
            outputInterface: nil,
            gateways: [],
            preferredSource: IPAddress(netlinkAddress: rtnl_route_get_pref_src(route)),
            isLinkDown: false,
            metric: rtnl_route_get_priority(route)
        )
        let count = rtnl_route_get_nnexthops(route)
        for n in 0..<max(count, 0) {
            guard let hop = rtnl_route_nexthop_n(route, n) else { continue }
            let index = Int(rtnl_route_nh_get_ifindex(hop))
            if entry.outputInterface == nil, index > 0 { entry.outputInterface = index }
            if let gateway = IPAddress(netlinkAddress: rtnl_route_nh_get_gateway(hop))
                ?? IPAddress(netlinkAddress: rtnl_route_nh_get_via(hop)) {
                entry.gateways.append(gateway)
            }
            if n == 0, rtnl_route_nh_get_flags(hop) & UInt32(RTNH_F_LINKDOWN) != 0 {
                entry.isLinkDown = true
            }
        }
        return entry
    }
}
