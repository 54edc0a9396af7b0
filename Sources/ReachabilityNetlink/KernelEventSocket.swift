import ReachabilityModel
import ReachabilitySystem
import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// The engine's event socket: libnl's cache manager holding links and addresses, on a socket the
/// engine owns, which also joins the route and rule groups as a wake-up.
///
/// - Messages whose sender port is not 0 are dropped before libnl parses them (libnl checks no sender).
/// - `RTNLGRP_IPV6_IFINFO` is dropped after the link cache is added: libnl 3.7 keeps ghost AF_INET6
///   link objects from it forever.
/// - Every call happens on the engine's loop: libnl's reference counts are not atomic.
package final class KernelEventSocket {
    private let socket: OpaquePointer
    private let manager: OpaquePointer
    private let linkCache: OpaquePointer
    private let addressCache: OpaquePointer
    private let inbox = EventInbox()
    private let datagrams = EventDatagrams(size: KernelEventSocket.messageBufferSize)
    /// Whether libnl takes the datagrams `drain` hands it (`EventDatagrams.installReceive`).
    private let handsOver: Bool

    /// The receive buffer asked for: at 4 MiB a burst of tens of thousands of route events fits
    /// before ENOBUFS. Capped by `net.core.rmem_max` unless the process may force it.
    package static let receiveBufferSize: Int32 = 4 << 20

    /// libnl's buffer for one received datagram (one event message).
    package static let messageBufferSize = 64 << 10

    /// Opens the socket, the manager and both caches in the calling thread's namespace, and fills the caches.
    package init() throws(NetlinkError) {
        ProcessExitGuard.install()
        guard let socket = nl_socket_alloc() else { throw .noMemory("nl_socket_alloc") }
        var manager: OpaquePointer?
        do {
            try SetupFaults.trip(.eventSocket)
            // The manager opens two sockets; if the second fails, libnl < 3.12 aborts (see DescriptorReserve).
            try DescriptorReserve.ensure(2, for: "engine's event socket")
            // flags 0: NL_AUTO_PROVIDE would publish the caches process-wide (libnl issue #273).
            try checkResource("nl_cache_mngr_alloc", "engine's event socket") {
                nl_cache_mngr_alloc(socket, NETLINK_ROUTE, 0, &manager)
            }
        } catch {
            // On failure the manager is gone and our socket closed, but not freed.
            nl_socket_free(socket)
            throw error
        }
        guard let manager else {
            nl_socket_free(socket)
            throw .noMemory("nl_cache_mngr_alloc")
        }
        let context = Unmanaged.passUnretained(inbox).toOpaque()
        // Every message that reaches libnl passes here first (`drain` notes the rest itself).
        nl_socket_modify_cb(socket, NL_CB_MSG_IN, NL_CB_CUSTOM, { message, context in
            guard let message, let context else { return Int32(NL_SKIP.rawValue) }
            let inbox = Unmanaged<EventInbox>.fromOpaque(context).takeUnretainedValue()
            guard let sender = nlmsg_get_src(message), sender.pointee.nl_pid == 0 else {
                inbox.result.forgedDropped += 1
                return Int32(NL_SKIP.rawValue)
            }
            return inbox.note(nlmsg_hdr(message)!) ? Int32(NL_OK.rawValue) : Int32(NL_SKIP.rawValue)
        }, context)

        var linkCache: OpaquePointer?
        var addressCache: OpaquePointer?
        // The second kind of change callback: the object before and after, so the tables change
        // by exactly what moved (docs: libnl's NL_ACT_NEW has no old object, NL_ACT_DEL no new one).
        let linkChanged: change_func_v2_t = { _, old, new, _, _, context in
            guard let context else { return }
            let inbox = Unmanaged<EventInbox>.fromOpaque(context).takeUnretainedValue()
            inbox.result.linksOrAddressesChanged = true
            if inbox.tables.linkChanged(old: old, new: new) { inbox.result.linksMoved = true }
        }
        let addressChanged: change_func_v2_t = { _, old, new, _, _, context in
            guard let context else { return }
            let inbox = Unmanaged<EventInbox>.fromOpaque(context).takeUnretainedValue()
            inbox.result.linksOrAddressesChanged = true
            switch inbox.tables.addressChanged(old: old, new: new) {
            case .ipv4: inbox.result.ipv4AddressesMoved = true
            case .ipv6: inbox.result.ipv6AddressesMoved = true
            case nil: break
            }
        }
        do {
            try SetupFaults.trip(.eventManager)
            linkCache = try Self.addCache("route/link", "nl_cache_mngr_add_cache_v2(route/link)", to: manager, calling: linkChanged, with: context)
            try SetupFaults.trip(.linkCache)
            _ = nl_socket_drop_membership(socket, Int32(RTNLGRP_IPV6_IFINFO.rawValue))
            addressCache = try Self.addCache("route/addr", "nl_cache_mngr_add_cache_v2(route/addr)", to: manager, calling: addressChanged, with: context)
            try SetupFaults.trip(.addressCache)
            // Nexthop objects: routes that use them change with no route message of their own.
            // ND user options: RFC 8910's captive-portal API URI, from RAs the kernel accepted.
            for group in [RTNLGRP_IPV4_ROUTE, RTNLGRP_IPV6_ROUTE, RTNLGRP_IPV4_RULE, RTNLGRP_IPV6_RULE, RTNLGRP_NEXTHOP,
                          RTNLGRP_ND_USEROPT] {
                try check("nl_socket_add_membership", nl_socket_add_membership(socket, Int32(group.rawValue)))
            }
        } catch {
            nl_cache_mngr_free(manager)
            nl_socket_free(socket)
            throw error
        }
        guard let linkCache, let addressCache else {
            nl_cache_mngr_free(manager)
            nl_socket_free(socket)
            throw .noMemory("nl_cache_mngr_add")
        }
        // From here on libnl reads only the datagrams `drain` hands it (the caches are filled).
        handsOver = EventDatagrams.installReceive(on: socket)
        // One recvmsg per message: libnl peeks at each message first to size its buffer, which
        // doubles the reads of every event. Event messages are a few KiB (a link notification
        // carries no VF list); a larger one is reported as truncated and handled as an overrun.
        nl_socket_disable_msg_peek(socket)
        _ = nl_socket_set_msg_buf_size(socket, Self.messageBufferSize)
        _ = nl_socket_set_buffer_size(socket, Self.receiveBufferSize, 0)
        var size = Self.receiveBufferSize
        // SO_RCVBUFFORCE passes rmem_max when the process has CAP_NET_ADMIN; without it this fails harmlessly.
        _ = setsockopt(nl_socket_get_fd(socket), SOL_SOCKET, SO_RCVBUFFORCE, &size, socklen_t(MemoryLayout<Int32>.size))
        self.socket = socket
        self.manager = manager
        fileDescriptor = nl_socket_get_fd(socket)
        routeWatch = RouteEventWatch(descriptor: fileDescriptor)
        self.linkCache = linkCache
        self.addressCache = addressCache
        inbox.result = DrainResult()
        walkCaches()
    }

    /// Makes the cache named `name`, hands it to the manager, which fills it, and has `callback`
    /// told of each object that changes in it afterwards.
    private static func addCache(_ name: String, _ label: StaticString, to manager: OpaquePointer,
                                 calling callback: change_func_v2_t,
                                 with context: UnsafeMutableRawPointer) throws(NetlinkError) -> OpaquePointer {
        var cache: OpaquePointer?
        try check("nl_cache_alloc_name", nl_cache_alloc_name(name, &cache))
        guard let cache else { throw .noMemory("nl_cache_alloc_name") }
        let code = nl_cache_mngr_add_cache_v2(manager, cache, callback, context)
        guard code >= 0 else {
            nl_cache_free(cache)  // the manager frees only the caches it took
            try check(label, code)
            throw .noMemory("nl_cache_mngr_add_cache_v2")
        }
        return cache
    }

    deinit {
        // The manager frees its caches and closes the socket but does not free it.
        ProcessExitGuard.unlessExiting {
            nl_cache_mngr_free(manager)
            nl_socket_free(socket)
        }
    }

    /// The descriptor to watch for readability.
    /// The socket's descriptor, kept: asked of libnl once, not every turn.
    package let fileDescriptor: Int32

    /// The destinations whose route messages the kernel queues on this socket; it drops the rest.
    package let routeWatch: RouteEventWatch

    /// Reads until the socket is empty, applying link and address events to the caches.
    ///
    /// A datagram of route, rule, nexthop, neighbour or RA-option messages is noted here alone;
    /// one with a link or address message goes to libnl's manager, which applies it to its caches
    /// (`EventDatagrams`). After ENOBUFS we keep reading what is still queued, and report the
    /// overrun so the engine refills the caches from fresh dumps.
    package func drain() -> DrainResult {
        inbox.result = DrainResult()
        let descriptor = fileDescriptor
        // Bounded: a socket that overflows again and again is refilled once the turn ends.
        var overruns = 0
        reading: while overruns < 64 {
            switch datagrams.read(from: descriptor) {
            case .empty, .failed:
                break reading
            case .overrun:
                inbox.result.overrun = true
                overruns += 1
            case .received(let count):
                for slot in 0..<count { take(datagrams.datagram(at: slot)) }
                // Fewer than asked for: the socket was empty (a later message wakes the loop again).
                if count < EventDatagrams.slotCount { break reading }
            }
        }
        // Handed over, not shared: the engine then changes it in place without copying its storage.
        let result = inbox.result
        inbox.result = DrainResult()
        return result
    }

    /// Notes or applies a datagram just read.
    private func take(_ datagram: EventDatagrams.Datagram) {
        // Longer than the buffer: a message of it is lost, as with ENOBUFS; refill from dumps.
        guard !datagram.truncated else {
            inbox.result.overrun = true
            return
        }
        var forLibnl = false
        var messages = 0
        datagrams.forEachMessage(in: datagram) { header in
            messages += 1
            if !EventInbox.isNoCacheType(header.pointee.nlmsg_type) { forLibnl = true }
        }
        // libnl checks no sender: a message of any other port than the kernel's is forged.
        guard datagram.sender.nl_pid == 0 else {
            inbox.result.forgedDropped += messages
            return
        }
        guard forLibnl else {
            datagrams.forEachMessage(in: datagram) { _ = inbox.note($0) }
            return
        }
        // No receive of ours in libnl: the caches cannot take this datagram; refill them instead.
        guard handsOver else {
            inbox.result.overrun = true
            return
        }
        let processed = datagrams.handOver(datagram) { nl_cache_mngr_data_ready(manager) }
        // ENOBUFS cannot come from a datagram handed over; an allocation that failed in libnl can,
        // as NLE_NOMEM, and a message it could not read whole as NLE_MSG_TRUNC: refill from dumps.
        if processed == -Int32(NLE_NOMEM) || processed == -Int32(NLE_MSG_TRUNC) {
            inbox.result.overrun = true
        }
    }

    /// Joins the neighbour group while `routers` is not empty and leaves it otherwise: no wake-up
    /// for a neighbour while no answer depends on one. Neighbour messages of other hosts are
    /// dropped unread.
    package func watch(routers: Set<RouterNeighbour>) {
        inbox.neighbours.watch(routers)
        // RTNLGRP_ND_USEROPT stays joined from the start: it also carries the captive-portal API.
        let wanted = !routers.isEmpty
        guard inbox.neighbours.joinedNeighbours != wanted else { return }
        let group = Int32(RTNLGRP_NEIGH.rawValue)
        let code = wanted ? nl_socket_add_membership(socket, group) : nl_socket_drop_membership(socket, group)
        if code == 0 { inbox.neighbours.joinedNeighbours = wanted }
    }

    /// Rebuilds both caches from fresh dumps on `dumpSocket` (one that joined no group).
    package func refill(using dumpSocket: OpaquePointer) throws(NetlinkError) {
        try check("nl_cache_refill(route/link)", nl_cache_refill(dumpSocket, linkCache))
        try check("nl_cache_refill(route/addr)", nl_cache_refill(dumpSocket, addressCache))
        walkCaches()
    }

    /// Fills the tables from a walk of both caches: libnl fires no change callback for the
    /// objects of a fill or a refill.
    private func walkCaches() {
        inbox.tables.removeAll()
        let context = Unmanaged.passUnretained(inbox).toOpaque()
        nl_cache_foreach(linkCache, { object, context in
            guard let object, let context else { return }
            Unmanaged<EventInbox>.fromOpaque(context).takeUnretainedValue().tables.walked(link: object)
        }, context)
        nl_cache_foreach(addressCache, { object, context in
            guard let object, let context else { return }
            Unmanaged<EventInbox>.fromOpaque(context).takeUnretainedValue().tables.walked(address: object)
        }, context)
    }

    /// The captive-portal announcements of the RAs this socket drains, paced: the engine's
    /// announcements part releases what the pacing holds back; snapshots carry what is shown.
    package var captivePortals: CaptivePortalAnnouncements { inbox.captivePortals }

    /// The links and addresses as a snapshot shows them: each link's own object or a bridge's
    /// stand-in, with its captive-portal API; addresses of links not known left out.
    package func snapshot() -> KernelSnapshot {
        let tables = inbox.tables
        var snapshot = KernelSnapshot()
        snapshot.links = tables.links
        for (index, bridge) in tables.bridges where !snapshot.links.keys.contains(index) {
            snapshot.links[index] = bridge
        }
        inbox.captivePortals.apply(to: &snapshot.links)
        snapshot.addresses.reserveCapacity(tables.addresses.count)
        for address in tables.addresses where snapshot.links.keys.contains(address.interfaceIndex) {
            snapshot.addresses.append(address)
        }
        return snapshot
    }

    /// Hands over the links the caches' callbacks touched since the last call (or since
    /// `snapshot()`), into `list`, whose storage the tables keep for the next turn.
    package func takeTouched(into list: inout [LinkTables.Touch]) {
        inbox.tables.takeTouched(into: &list)
    }

    /// Brings `snapshot` up to date in place with the `touched` links (`takeTouched`).
    ///
    /// Each touched link is made again from its object, with its captive-portal API; the address
    /// list is made again, in place, only when an address moved or a link came or went.
    package func update(_ snapshot: inout KernelSnapshot, touched: [LinkTables.Touch]) {
        guard !touched.isEmpty else { return }
        var addressesMoved = false
        for touch in touched {
            let link = inbox.tables.link(touch.index)
            let cameOrWent = (link != nil) != snapshot.links.keys.contains(touch.index)
            addressesMoved = addressesMoved || touch.addresses || cameOrWent
            // Only its addresses moved: the snapshot's link, with the traits read for it, stands.
            if touch.link || cameOrWent { snapshot.links[touch.index] = link }
        }
        inbox.captivePortals.apply(to: &snapshot.links)
        guard addressesMoved else { return }
        snapshot.addresses.removeAll(keepingCapacity: true)
        for address in inbox.tables.addresses where snapshot.links.keys.contains(address.interfaceIndex) {
            snapshot.addresses.append(address)
        }
    }

    /// Drops what the callbacks noted: the caller makes its snapshot afresh (`snapshot()`).
    package func forgetTouched() {
        inbox.tables.dropTouched()
    }
}
