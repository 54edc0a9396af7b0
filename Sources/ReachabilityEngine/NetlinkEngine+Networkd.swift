import ReachabilityLoop
import ReachabilityModel
import ReachabilityNetlink

extension NetlinkEngine {
    /// networkd's link state files changed: a shown `CAPTIVE_PORTAL=` that moved is a change of its
    /// link, evaluated as one (the paths over that link carry the new `captivePortalAPI`); a refused
    /// one is counted and logged as an RA's.
    ///
    /// - Returns: whether a link's `DNS=` servers changed (then `supportsDNS` is read again).
    func networkdLinksChanged() -> Bool {
        guard let sockets, let networkd = sockets.networkd else { return false }
        let changes = networkd.reload()
        var result = DrainResult()
        changes.refusals.forEach { result.noteRefusal($0) }
        result.linksOrAddressesChanged = changes.captivePortals
        absorb(result, from: sockets)  // counts the refusals and arms the pacing's timer
        if changes.captivePortals { propagate() }
        return changes.nameServers
    }
}
