import ReachabilitySystem
/// The resolution state of a name as the evaluator sees it.
package struct HostResolution: Sendable, Equatable {
    package enum State: Sendable, Equatable {
        /// The first resolution has not finished.
        case pending
        /// Addresses are known (perhaps from an earlier success, see `isStale`).
        case resolved
        /// The name does not exist or has no addresses.
        case notFound
        /// No name server is configured.
        case noNameServer
        /// The first resolution failed or timed out without a definite answer.
        case failed
    }

    package var state: State = .pending
    package var addresses: [IPAddress] = []
    /// The last lookup failed temporarily; `addresses` are those of the last success.
    package var isStale: Bool = false

    package init(state: State = .pending, addresses: [IPAddress] = [], isStale: Bool = false) {
        self.state = state
        self.addresses = addresses
        self.isStale = isStale
    }
}
