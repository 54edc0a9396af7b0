import ReachabilityModel
import ReachabilitySystem
/// Which neighbour messages can move a route answer: those of the routers the engine watches
/// (`KernelEventSocket.watch(routers:)`), and of those only the ones that change
/// what the kernel's route selection sees. Everything else (a busy LAN's hosts, a router's
/// entry going REACHABLE → STALE → DELAY → REACHABLE with traffic) is dropped here, in the
/// socket's message callback, before any evaluation.
///
/// With several IPv6 routes to choose from, the kernel (`rt6_check_neigh`, under
/// `RT6_LOOKUP_F_REACHABLE` when forwarding is off) takes a router whose entry is valid, or
/// (with `CONFIG_IPV6_ROUTER_PREF`) any that has not failed, before the others: only moves
/// between those three kinds of state matter.
package struct NeighbourFilter {
    /// What route selection sees of a router's neighbour entry.
    package enum Reach: Equatable {
        /// `NUD_VALID`: PERMANENT, NOARP, REACHABLE, PROBE, STALE, DELAY.
        case usable
        /// `NUD_FAILED`.
        case failed
        /// INCOMPLETE, NONE, or no entry (deleted).
        case unresolved
    }

    /// The routers watched, with the reach last seen (nil before the first message).
    package private(set) var watched: [RouterNeighbour: Reach?] = [:]
    /// Whether the socket is a member of `RTNLGRP_NEIGH`.
    package var joinedNeighbours = false

    package init() {}

    /// `struct ndmsg`: family, padding, `ndm_ifindex` (4), `ndm_state` (2), flags, type.
    package static let headerLength = 12
    /// `NDA_DST`.
    package static let destinationAttribute: UInt16 = 1

    /// Watches exactly `routers`, keeping what was seen of those already watched.
    package mutating func watch(_ routers: Set<RouterNeighbour>) {
        var next: [RouterNeighbour: Reach?] = [:]
        for router in routers { next[router] = watched[router] ?? .some(nil) }
        watched = next
    }

    /// Reads an RTM_NEWNEIGH or RTM_DELNEIGH message (its payload after `nlmsghdr`).
    ///
    /// - Returns: the router, when it is watched and its reach moved.
    package mutating func moved(isDeletion: Bool, payload: UnsafeRawBufferPointer) -> RouterNeighbour? {
        guard !watched.isEmpty, payload.count >= Self.headerLength, Int32(payload[0]) == Self.inet6 else { return nil }
        let index = Int(payload.loadUnaligned(fromByteOffset: 4, as: Int32.self))
        guard let destination = Self.destination(in: payload) else { return nil }
        let router = RouterNeighbour(interfaceIndex: index, address: destination)
        guard let seen = watched[router] else { return nil }
        let state = payload.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        let reach: Reach = isDeletion ? .unresolved : Self.reach(ofState: state)
        watched[router] = reach
        return seen == reach ? nil : router
    }

    package static func reach(ofState state: UInt16) -> Reach {
        // NUD_FAILED, and NUD_VALID = PERMANENT | NOARP | REACHABLE | PROBE | STALE | DELAY.
        if state & 0x20 != 0 { return .failed }
        if state & (0x80 | 0x40 | 0x02 | 0x10 | 0x04 | 0x08) != 0 { return .usable }
        return .unresolved
    }

    /// `AF_INET6`, spelled out: this file builds without the system's headers.
    package static let inet6: Int32 = 10

    /// The 16 bytes of NDA_DST, nil without it.
    private static func destination(in payload: UnsafeRawBufferPointer) -> IPAddress? {
        var offset = headerLength
        while payload.count - offset >= 4 {
            let length = Int(payload.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
            guard length >= 4, length <= payload.count - offset else { return nil }
            let kind = payload.loadUnaligned(fromByteOffset: offset + 2, as: UInt16.self) & 0x3FFF
            if kind == destinationAttribute {
                guard length - 4 == 16 else { return nil }
                return IPAddress(family: .ipv6, raw: UnsafeRawBufferPointer(rebasing: payload[offset + 4 ..< offset + 20]))
            }
            offset += (length + 3) & ~3
        }
        return nil
    }
}
