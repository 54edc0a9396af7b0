import ReachabilityLoop
import ReachabilityModel
import ReachabilityNetlink
import Dispatch
import Logging

/// The captive-portal announcements of the engine's event socket: the timer for a change the
/// pacing holds back (`CaptivePortalAnnouncements`), and the log of the refused ones.
extension NetlinkEngine {
    /// Arms one timer of the loop for the held announcement's time, if one waits and none is armed
    /// (the RAs' and networkd's records are paced apart, each with its timer).
    func armAnnouncementRelease(from sockets: EngineSockets) {
        for due in [sockets.events.heldAnnouncementDue(), sockets.networkd?.heldChangeDue()] {
            guard let due else { continue }
            _ = loop.schedule(at: DispatchTime(uptimeNanoseconds: due), .announcementRelease)
        }
    }

    /// The held announcement's time has come: shown and evaluated as a change of its link; a
    /// later one still held arms the next timer.
    func releaseHeldAnnouncements() {
        guard let sockets else { return }
        let fromRAs = sockets.events.releaseHeldAnnouncements()
        let fromNetworkd = sockets.networkd?.releaseHeld() ?? false
        guard fromRAs || fromNetworkd else { return armAnnouncementRelease(from: sockets) }
        var result = DrainResult()
        result.linksOrAddressesChanged = true
        absorb(result, from: sockets)
        propagate()
    }

    /// Counts the drain's refused announcements and logs each (up to the drain's detail limit) at
    /// debug level: the interface, what was wrong, and the value escaped, never its raw bytes.
    func countRefusals(in result: DrainResult) {
        report.counters.refusedAnnouncements += result.refusedAnnouncements
        for refusal in result.refusals {
            identity.logger.debug("refused a captive-portal announcement", metadata: [
                "namespace": "\(identity.namespace)", "interface": "\(refusal.interfaceIndex)",
                "reason": "\(refusal.reason)", "value": "\(refusal.value)",
            ])
        }
        let untold = result.refusedAnnouncements - result.refusals.count
        if untold > 0 {
            identity.logger.debug("refused more captive-portal announcements", metadata: ["namespace": "\(identity.namespace)", "count": "\(untold)"])
        }
    }
}
