/// The resolution state of a name as the evaluator sees it.
struct HostResolution: Sendable, Equatable {
    enum State: Sendable, Equatable {
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

    var state: State = .pending
    var addresses: [IPAddress] = []
    /// The last lookup failed temporarily; `addresses` are those of the last success.
    var isStale = false
}
