import Dispatch
import Logging
import ReachabilityModel
import ReachabilityNetlink

/// The captive-portal announcements of the engine's namespace: the RAs' option 37, which the
/// event socket notes as it drains, and networkd's `CAPTIVE_PORTAL=` records. Each source is
/// paced apart (`CaptivePortalAnnouncements`); this part decides when a held one is shown, and
/// what networkd's rewritten files changed. The snapshot reads the URIs they show.
struct Announcements {
    let routerAdvertisements: CaptivePortalAnnouncements
    /// nil where networkd's records are not read (a named namespace).
    let networkd: NetworkdLinkRecords?

    /// The timer a held announcement needs, if one waits and no timer is armed for it yet: one
    /// timer for both sources, at the earlier one's moment.
    func releaseTimer() -> TurnEffects.Effect? {
        // Both are asked: each notes the moment it was given. (No array: this runs every drain.)
        let fromRAs = routerAdvertisements.heldChangeDue()
        let fromNetworkd = networkd?.heldChangeDue()
        let due = fromRAs.map { ras in fromNetworkd.map { min(ras, $0) } ?? ras } ?? fromNetworkd
        return due.map { .arm(.announcementRelease, at: $0) }
    }

    /// The release timer fired: shows what is due. - Returns: whether a link's URI changed.
    func releaseHeld() -> Bool {
        let fromRAs = routerAdvertisements.releaseHeld()
        let fromNetworkd = networkd?.releaseHeld() ?? false
        return fromRAs || fromNetworkd
    }

    /// networkd's link state files changed: reads them again (nil where they are not read).
    func networkdChanged() -> NetworkdLinkRecords.Changes? {
        networkd?.reload()
    }
}

extension NetlinkEngine {
    /// The held announcements' time has come: shown and evaluated as a change of their links; a
    /// later one still held asks for the next timer.
    func releaseHeldAnnouncements() {
        guard let sockets else { return }
        guard announcements.releaseHeld() else { return askForAnnouncementRelease() }
        var result = DrainResult()
        result.linksOrAddressesChanged = true
        result.announcementsMoved = true
        absorb(result, from: sockets)
        propagate()
    }

    /// Asks the turn's end for the timer a held announcement needs, if any.
    func askForAnnouncementRelease() {
        if let timer = announcements.releaseTimer() { effects.add(timer) }
    }

    /// networkd's link state files changed: a shown `CAPTIVE_PORTAL=` that moved is a change of its
    /// link, evaluated as one (the paths over that link carry the new `captivePortalAPI`); a refused
    /// one is counted and logged as an RA's.
    ///
    /// - Returns: whether a link's `DNS=` servers changed (then `supportsDNS` is read again).
    func networkdLinksChanged() -> Bool {
        guard let sockets, let changes = announcements.networkdChanged() else { return false }
        var result = DrainResult()
        changes.refusals.forEach { result.noteRefusal($0) }
        result.linksOrAddressesChanged = changes.captivePortals
        result.announcementsMoved = changes.captivePortals
        absorb(result, from: sockets)  // counts the refusals and asks for the pacing's timer
        if changes.captivePortals { propagate() }
        return changes.nameServers
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
