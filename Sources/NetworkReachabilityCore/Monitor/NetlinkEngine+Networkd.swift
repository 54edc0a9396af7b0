import ReachabilityModel
import ReachabilityNetlink
import Dispatch

extension NetlinkEngine {
    /// Follows networkd's link state files: a changed `CAPTIVE_PORTAL=` is a change of its link,
    /// evaluated as one (the paths over that link carry the new `captivePortalAPI`).
    func startWatchingNetworkd() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let networkd = sockets?.networkd, let waiter else { return }
        networkd.watch(with: waiter) { [weak self] in
            guard let self, let sockets = self.sockets else { return }
            var result = DrainResult()
            result.linksOrAddressesChanged = true
            self.absorb(result, from: sockets)
            self.propagate()
        }
    }
}
