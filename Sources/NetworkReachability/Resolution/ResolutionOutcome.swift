/// What one run of the system resolver said about a name.
enum ResolutionOutcome: Sendable, Equatable {
    /// The addresses, in the resolver's order, without duplicates.
    case addresses([IPAddress])
    /// A definite no: NXDOMAIN, or the name has no address records (`EAI_NONAME`, `EAI_NODATA`).
    case notFound
    /// The lookup failed and no name server is configured.
    case noNameServer
    /// A failure that may pass: a timeout, SERVFAIL, a refused connection (`EAI_AGAIN` and others).
    case temporaryFailure(String)
}

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
