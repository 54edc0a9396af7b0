import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// The words of ``NetworkPath/connectivityReason``: short, stable, meant for people and scripts
/// alike (`path.connectivityReason` in the command's JSON), so each is one fixed string.
package enum ConnectivityReason {
    /// The probe's host name did not resolve (not found, no name server, a resolver failure or timeout).
    package static let nameNotResolved = "name not resolved"
    /// The connection was refused (a TCP reset to the SYN, or an ICMP "port unreachable").
    package static let refused = "refused"
    /// The connection was reset or closed in the middle of the exchange.
    package static let reset = "reset"
    /// Nothing (or not enough) came before the probe's timeout.
    package static let timedOut = "timed out"
    /// The answer was not an HTTP/1.x response the probe accepts (garbage, a head over the cap, a close before a head).
    package static let notHTTP = "not HTTP"
    /// A 3xx with a `Location`: a portal's redirect.
    package static let redirect = "redirect"
    /// A 3xx whose `Location` is a URL of another scheme than `http` or `https` (`javascript:`,
    /// `data:`, `file:`, ...): an application that opens `portalURL` must never be handed one.
    package static let redirectNotHTTP = "redirect to a non-HTTP URL"
    /// A 3xx whose `Location` is no URL at all: empty, over the cap, bytes a URL cannot hold, no host.
    package static let redirectMalformed = "redirect to a malformed URL"
    /// A 200 whose body lacks the expected text (or did not finish in time).
    package static let missingText = "status 200 without the expected text"
    /// The network said there is no route to the probe's address (ENETUNREACH, EHOSTUNREACH).
    package static let noRoute = "no route"

    /// The network's captive-portal API (RFC 8908) said `captive: true`.
    package static let captivePortalAPI = "captive portal API"
    /// The captive-portal API, fetched without a probe, failed or answered garbage: connectivity stays `unknown`.
    package static let captivePortalAPIFailed = "captive portal API failed"

    /// Another HTTP status than the one expected: `status 511`.
    package static func status(_ code: Int) -> String { "status \(code)" }

    /// A TLS failure, by kind: `TLS: certificate not trusted`.
    package static func tls(_ kind: String) -> String { "TLS: \(kind)" }

    /// The reason for a socket call that failed as `detail` says, which ends with the errno as
    /// `ReachabilityError.errnoName` writes it (`connect to 192.0.2.1: ECONNREFUSED`); nil for another errno.
    package static func socketFailure(_ detail: String) -> String? {
        let words: [(Int32, String)] = [
            (ECONNREFUSED, refused), (ECONNRESET, reset), (EPIPE, reset), (ECONNABORTED, reset),
            (ENETUNREACH, noRoute), (EHOSTUNREACH, noRoute), (EADDRNOTAVAIL, noRoute), (ETIMEDOUT, timedOut),
        ]
        return words.first { detail.hasSuffix(": " + ReachabilityError.errnoName($0.0)) }?.1
    }
}
