import ReachabilityModel
import ReachabilityNetlink
import ReachabilitySystem
/// What one run of the system resolver said about a name.
package enum ResolutionOutcome: Sendable, Equatable {
    /// The addresses, in the resolver's order, without duplicates.
    case addresses([IPAddress])
    /// A definite no: NXDOMAIN, or the name has no address records (`EAI_NONAME`, `EAI_NODATA`).
    case notFound
    /// The lookup failed and no name server is configured.
    case noNameServer
    /// A failure that may pass: a timeout, SERVFAIL, a refused connection (`EAI_AGAIN` and others).
    case temporaryFailure(String)
}
