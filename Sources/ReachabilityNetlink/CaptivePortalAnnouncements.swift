import ReachabilityModel
import ReachabilitySystem
import CNetlink
import Dispatch

/// The captive-portal API each interface's network announced (RFC 8910, IPv6 Router
/// Advertisement option 37), as the engine's event socket heard it.
///
/// Kept per interface index: a newer announcement replaces the URI, the unrestricted URN removes
/// it, and it goes when the interface goes away, down, or loses its carrier (a network it joins
/// later must announce itself again). Used on the engine's queue only, like the socket.
///
/// Paced: RAs need only a link-local sender and hop limit 255, so any host on a shared link can
/// send thousands a second, each with another URI, and each shown URI is a record for every
/// monitor (and, for one that fetches the API, a fetch). A change is shown at once when the
/// interface's last shown change is `minimumSpacing` old; otherwise it is held, the latest
/// replacing an earlier one, and shown when that time has come (the engine arms one timer for
/// it, `heldChangeDue`). An announcement that repeats the shown URI drops what was held.
package final class CaptivePortalAnnouncements {
    /// The least time between two shown changes of one interface's URI: at most four a second,
    /// and the last URI of a storm shown at most this long after it arrived (docs/semantics.md,
    /// "Connectivity").
    package static let minimumSpacing: UInt64 = 250_000_000

    /// What `note` found in one message.
    package struct Noted: Equatable {
        /// An interface's shown URI changed.
        package var changed = false
        /// The message's captive-portal option was refused, and why.
        package var refusal: CaptivePortalRefusal?
    }

    /// A change waiting for its time: the URI, or nil for the unrestricted URN.
    private struct Held {
        var uri: String?
        var due: UInt64
    }

    private var byInterface: [Int: String] = [:]
    private var held: [Int: Held] = [:]
    private var lastShown: [Int: UInt64] = [:]
    /// The due time the engine armed its timer for, so that it arms one, not one per message.
    private var armed: UInt64?

    package init() {}

    /// Takes an `RTM_NEWNDUSEROPT` message at `now` (`DispatchTime`'s nanoseconds).
    package func note(_ header: UnsafeMutablePointer<nlmsghdr>, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Noted {
        let total = Int(header.pointee.nlmsg_len)
        guard total >= MemoryLayout<nlmsghdr>.size, let payload = nlmsg_data(header) else { return Noted() }
        return note(NDUserOptionParser.read(UnsafeRawBufferPointer(start: payload, count: total - MemoryLayout<nlmsghdr>.size)), now: now)
    }

    /// Takes what one message held, at `now`.
    package func note(_ reading: NDUserOptionParser.Reading, now: UInt64) -> Noted {
        switch reading {
        case .announcement(.api(let index, let uri)):
            return Noted(changed: announce(uri, on: index, now: now))
        case .announcement(.unrestricted(let index)):
            return Noted(changed: announce(nil, on: index, now: now))
        case .refused(let refusal):
            return Noted(refusal: refusal)
        case .nothing:
            return Noted()
        }
    }

    private func announce(_ uri: String?, on index: Int, now: UInt64) -> Bool {
        guard byInterface[index] != uri else {
            held[index] = nil  // the latest word is the one shown: nothing waits
            return false
        }
        let due = (lastShown[index] ?? 0) &+ Self.minimumSpacing
        guard lastShown[index] == nil || now >= due else {
            held[index] = Held(uri: uri, due: due)
            return false
        }
        show(uri, on: index, now: now)
        return true
    }

    private func show(_ uri: String?, on index: Int, now: UInt64) {
        byInterface[index] = uri
        held[index] = nil
        lastShown[index] = now
    }

    /// When the earliest held change is due, the first time it is asked (the engine arms a timer
    /// then); nil when nothing is held or a timer is already armed for it.
    package func heldChangeDue() -> UInt64? {
        guard let due = held.values.map(\.due).min(), armed.map({ due < $0 }) ?? true else { return nil }
        armed = due
        return due
    }

    /// Shows the held changes whose time has come (the armed timer fired). - Returns: whether a URI changed.
    package func releaseHeld(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        armed = nil
        let due = held.filter { $0.value.due <= now }
        for (index, change) in due { show(change.uri, on: index, now: now) }
        return !due.isEmpty
    }

    /// Puts each interface's URI on its link, and forgets those of links gone, down or without
    /// carrier, with what was held for them.
    package func apply(to links: inout [Int: LinkState]) {
        for index in Set(byInterface.keys).union(held.keys) {
            guard let link = links[index], link.isUp, link.hasCarrier else {
                byInterface[index] = nil
                held[index] = nil
                lastShown[index] = nil
                continue
            }
            if let uri = byInterface[index] { links[index]?.captivePortalAPI = uri }
        }
    }
}
