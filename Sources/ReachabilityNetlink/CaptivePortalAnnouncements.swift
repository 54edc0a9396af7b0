import ReachabilityModel
import ReachabilitySystem
import CNetlink

/// The captive-portal API each interface's network announced (RFC 8910, IPv6 Router
/// Advertisement option 37), as the engine's event socket heard it.
///
/// Kept per interface index: a newer announcement replaces the URI, the unrestricted URN removes
/// it, and it goes when the interface goes away, down, or loses its carrier (a network it joins
/// later must announce itself again). Used on the engine's queue only, like the socket.
package final class CaptivePortalAnnouncements {
    private var byInterface: [Int: String] = [:]

    /// Takes an `RTM_NEWNDUSEROPT` message. - Returns: whether an interface's URI changed.
    package func note(_ header: UnsafeMutablePointer<nlmsghdr>) -> Bool {
        let total = Int(header.pointee.nlmsg_len)
        guard total >= MemoryLayout<nlmsghdr>.size, let payload = nlmsg_data(header) else { return false }
        let bytes = UnsafeRawBufferPointer(start: payload, count: total - MemoryLayout<nlmsghdr>.size)
        switch NDUserOptionParser.announcement(in: bytes) {
        case .api(let index, let uri)?:
            guard byInterface[index] != uri else { return false }
            byInterface[index] = uri
            return true
        case .unrestricted(let index)?:
            return byInterface.removeValue(forKey: index) != nil
        case nil:
            return false
        }
    }

    /// Puts each interface's URI on its link, and forgets those of links gone, down or without carrier.
    package func apply(to links: inout [Int: LinkState]) {
        for (index, uri) in byInterface {
            guard let link = links[index], link.isUp, link.hasCarrier else {
                byInterface[index] = nil
                continue
            }
            links[index]?.captivePortalAPI = uri
        }
    }
}
