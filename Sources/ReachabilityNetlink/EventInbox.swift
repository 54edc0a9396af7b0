import ReachabilityModel
import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// What a drain of the event socket gathers, written by the message hook and libnl's change
/// callbacks while `KernelEventSocket.drain` runs on the engine's loop.
///
/// Passed to libnl unretained: `KernelEventSocket` holds it for longer than the manager lives.
///
/// The engine's loop thread's alone, like the engine: its properties' runtime exclusivity checks
/// are left out (`@exclusivity(unchecked)`), as they guard against no other thread.
final class EventInbox {
    @exclusivity(unchecked) var result = DrainResult()
    let captivePortals = CaptivePortalAnnouncements()
    @exclusivity(unchecked) var neighbours = NeighbourFilter()
    /// The caches' links and addresses, changed by libnl's change callbacks as it applies each message.
    @exclusivity(unchecked) var tables = LinkTables()

    /// Notes one message from the kernel (its sender already checked): what it moves, and for a
    /// route deletion alone, the route. - Returns: whether a cache of libnl's may take it
    /// (`NL_OK`), or it is done with here (`NL_SKIP`).
    func note(_ header: UnsafeMutablePointer<nlmsghdr>) -> Bool {
        result.messages += 1
        result.noteRequest(port: header.pointee.nlmsg_pid, sequence: header.pointee.nlmsg_seq)
        let type = Int32(header.pointee.nlmsg_type)
        switch type {
        case Int32(RTM_DELROUTE), Int32(RTM_DELADDR), Int32(RTM_DELLINK), Int32(RTM_DELRULE), Int32(RTM_DELNEXTHOP):
            result.deletions += 1
        default:
            break
        }
        switch type {
        case Int32(RTM_NEWROUTE), Int32(RTM_DELROUTE):
            result.routesChanged = true
            result.routeMessages += 1
            // A deletion is read only where it is used: a drain of this one route message
            // (`isSingleRouteDeletion`), which is then its first message that moves routes.
            if type == Int32(RTM_DELROUTE), result.routeMessages == 1, !result.linksOrAddressesChanged {
                result.deletedRoute = RouteMessageParser.deletedRoute(fromPayload: Self.payload(of: header))
                if header.pointee.nlmsg_pid != 0 {
                    result.deletedRoute?.request = NetlinkRequest(port: header.pointee.nlmsg_pid, sequence: header.pointee.nlmsg_seq)
                }
            }
            if let prefix = Self.routePrefix(of: header) {
                result.routeChanges.note(prefix)
            } else {
                result.routeChanges.isBroad = true
            }
        case Int32(RTM_NEWRULE), Int32(RTM_DELRULE), Int32(RTM_NEWNEXTHOP), Int32(RTM_DELNEXTHOP):
            result.routesChanged = true
            result.routeMessages += 1
            result.routeChanges.isBroad = true
        case Int32(RTM_NEWNEIGH), Int32(RTM_DELNEIGH):
            // No cache takes them: the manager skips a type none of its caches handles.
            if let router = neighbours.moved(isDeletion: type == Int32(RTM_DELNEIGH), payload: Self.payload(of: header)) {
                result.movedRouters.insert(router)
            }
        case Int32(RTM_NEWNDUSEROPT):
            // A Router Advertisement's options; libnl has no cache for them. They carry the
            // captive-portal API, and hint that a router refreshed routes without a message.
            result.userOptions = true
            let noted = captivePortals.note(header)
            if noted.changed {
                result.linksOrAddressesChanged = true
                result.announcementsMoved = true
            }
            if let refusal = noted.refusal { result.noteRefusal(refusal) }
            return false
        default:
            break
        }
        return true
    }

    /// Whether libnl's caches take no message of `type` (route/link takes link messages,
    /// route/addr address messages; the manager skips every other type): such a message is
    /// noted here alone, and a datagram of nothing else never reaches libnl.
    static func isNoCacheType(_ type: UInt16) -> Bool {
        switch Int32(type) {
        case Int32(RTM_NEWROUTE), Int32(RTM_DELROUTE), Int32(RTM_NEWRULE), Int32(RTM_DELRULE), Int32(RTM_NEWNEXTHOP),
             Int32(RTM_DELNEXTHOP), Int32(RTM_NEWNEIGH), Int32(RTM_DELNEIGH), Int32(RTM_NEWNDUSEROPT):
            true
        default:
            false
        }
    }

    private static func payload(of header: UnsafeMutablePointer<nlmsghdr>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: nlmsg_data(header), count: Int(nlmsg_datalen(header)))
    }

    /// The destination prefix of an RTM_NEWROUTE/RTM_DELROUTE message (no RTA_DST: the default route).
    ///
    /// - Returns: nil for a family other than IPv4 and IPv6, or a message too short to read.
    private static func routePrefix(of header: UnsafeMutablePointer<nlmsghdr>) -> RoutePrefix? {
        guard header.pointee.nlmsg_len >= UInt32(MemoryLayout<nlmsghdr>.size + MemoryLayout<rtmsg>.size),
              let payload = nlmsg_data(header) else { return nil }
        let route = payload.loadUnaligned(as: rtmsg.self)
        let family: IPAddress.Family
        switch Int32(route.rtm_family) {
        case AF_INET: family = .ipv4
        case AF_INET6: family = .ipv6
        default: return nil
        }
        var bytes = UnsafeRawBufferPointer(start: nil, count: 0)  // no RTA_DST: zeros
        if let attribute = nlmsg_find_attr(header, Int32(MemoryLayout<rtmsg>.size), Int32(RTA_DST.rawValue)),
           let data = nla_data(attribute) {
            bytes = UnsafeRawBufferPointer(start: data, count: min(Int(nla_len(attribute)), family.byteCount))
        }
        return RoutePrefix(family: family, bytes: bytes, length: Int(route.rtm_dst_len))
    }
}
