import ReachabilityModel
import ReachabilitySystem
import CNetlink
import Dispatch

/// The captive-portal API each interface's network announced (RFC 8910, IPv6 Router
/// Advertisement option 37), as the engine's event socket heard it.
///
/// Kept per interface index: a newer announcement replaces the URI, the unrestricted URN removes
/// it, and it goes when the interface goes away, down, or loses its carrier (a network it joins
/// later must announce itself again). Used on the engine's loop only, like the socket.
///
/// Paced: RAs need only a link-local sender and hop limit 255, so any host on a shared link can
/// send thousands a second, each with another URI, and each shown URI is a record for every
/// monitor (and, for one that fetches the API, a fetch). A change is shown at once when the
/// interface's last shown change is `spacing` old; otherwise it is held, a later one replacing
/// it (the last wins), and shown at the earlier of two times: `spacing` after the last shown
/// change, or once the announcements have been quiet for `quietTime` (the end of a burst), which
/// may happen once per `spacing`. So a storm shows at most four URIs a second and its last one
/// `quietTime` after it ended; the engine arms one timer of its loop for the next due time
/// (`heldChangeDue`). An announcement that repeats the shown URI drops what was held.
package final class CaptivePortalAnnouncements {
    /// The least time between two shown changes of one interface's URI, and between two shown
    /// at the end of a burst (docs/semantics.md, "Announcements from the link").
    package static let spacing: UInt64 = 500_000_000
    /// How long the announcements of an interface must pause before a held change is shown early.
    package static let quietTime: UInt64 = 30_000_000

    /// What `note` found in one message.
    package struct Noted: Equatable {
        /// An interface's shown URI changed.
        package var changed = false
        /// The message's captive-portal option was refused, and why.
        package var refusal: CaptivePortalRefusal?
    }

    /// A change waiting for its time: the URI (nil for the unrestricted URN), and when it came.
    private struct Held {
        var uri: String?
        var arrived: UInt64
    }

    /// When an interface's URI last changed, and when a held change was last shown early.
    private struct Pace {
        var shown: UInt64
        var quiet: UInt64?

        /// When `held` may be shown: its slot, or the end of its burst when an early showing is left.
        func due(_ held: Held) -> UInt64 {
            min(shown &+ spacing, max(held.arrived &+ quietTime, quiet.map { $0 &+ spacing } ?? 0))
        }
    }

    // The engine's loop thread's alone (as `EventInbox`): no runtime exclusivity checks.
    @exclusivity(unchecked) private var byInterface: [Int: String] = [:]
    @exclusivity(unchecked) private var held: [Int: Held] = [:]
    @exclusivity(unchecked) private var paces: [Int: Pace] = [:]
    /// The due time the engine armed its timer for, so that it arms one, not one per message.
    @exclusivity(unchecked) private var armed: UInt64?

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
        if let pace = paces[index], now < pace.shown &+ Self.spacing {
            held[index] = Held(uri: uri, arrived: now)
            return false
        }
        show(uri, on: index, now: now, early: false)
        return true
    }

    private func show(_ uri: String?, on index: Int, now: UInt64, early: Bool) {
        byInterface[index] = uri
        held[index] = nil
        paces[index] = Pace(shown: now, quiet: early ? now : paces[index]?.quiet)
    }

    /// The URI shown for interface `index`, if any.
    package func shownURI(on index: Int) -> String? { byInterface[index] }

    /// When the earliest held change is due (`DispatchTime`'s nanoseconds), when the engine must
    /// arm a timer for it; nil when nothing is held or a timer is armed for that time or sooner.
    package func heldChangeDue() -> UInt64? {
        // Asked after every drain, nearly always with nothing held: a loop, no array.
        var earliest: UInt64?
        for (index, change) in held {
            if let due = paces[index]?.due(change), due < earliest ?? .max { earliest = due }
        }
        guard let due = earliest, armed.map({ due < $0 }) ?? true else { return nil }
        armed = due
        return due
    }

    /// Shows the held changes whose time has come (an armed timer fired); a change whose burst
    /// went on since is left for its next time. - Returns: whether a URI changed.
    package func releaseHeld(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        armed = nil
        var changed = false
        for (index, change) in held {
            guard let pace = paces[index], pace.due(change) <= now else { continue }
            show(change.uri, on: index, now: now, early: now < pace.shown &+ Self.spacing)
            changed = true
        }
        return changed
    }

    /// Puts each interface's URI on its link, and forgets those of links gone, down or without
    /// carrier, with what was held for them and their pace (a network joined later starts afresh).
    package func apply(to links: inout [Int: LinkState]) {
        for index in Set(byInterface.keys).union(held.keys).union(paces.keys) {
            guard let link = links[index], link.isUp, link.hasCarrier else {
                byInterface[index] = nil
                held[index] = nil
                paces[index] = nil
                continue
            }
            if let uri = byInterface[index] { links[index]?.captivePortalAPI = uri }
        }
    }
}
