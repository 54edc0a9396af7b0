import ReachabilityModel
import ReachabilityNetlink

extension NetlinkEngine {
    /// Follows networkd's link state files: a changed `CAPTIVE_PORTAL=` is a change of its link,
    /// evaluated as one (the paths over that link carry the new `captivePortalAPI`).
    func startWatchingNetworkd() {
        guard let networkd = sockets?.networkd else { return }
        networkd.watch(with: loop) { [loop] in loop.send(.networkdChanged) }
    }

    /// networkd rewrote a link's record and a URI changed.
    func networkdRecordsChanged() {
        guard let sockets else { return }
        var result = DrainResult()
        result.linksOrAddressesChanged = true
        absorb(result, from: sockets)
        propagate()
    }
}
