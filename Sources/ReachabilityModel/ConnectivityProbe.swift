import ReachabilitySystem
/// A connectivity probe: what to ask, and how often, to tell a route from the internet.
///
/// Three kinds, validated when the value is made:
/// - `http://HOST[:PORT]/PATH`: an HTTP/1.1 GET. It succeeds on status 204, or, when
///   `expecting` is given, on status 200 whose body contains that text. Plain HTTP on purpose:
///   captive portals intercept it. No redirect is followed, no cookie kept.
/// - `https://HOST[:PORT]/PATH`: the same GET over TLS 1.2 or 1.3 (OpenSSL), with SNI, the
///   server's certificate verified against the system's trust store (or `caFile`'s roots) and
///   its name against HOST. A portal cannot answer it with a valid certificate, so its success
///   is the strongest sign the internet is there; a TLS failure is `limited`, and
///   ``NetworkPath/connectivityReason`` says which (`TLS: certificate not trusted`, ...).
/// - `tcp://HOST:PORT`: succeeds when the connection is accepted.
///
/// Set it on a monitor with ``PathMonitor/connectivityProbe``; monitors of one namespace with
/// equal probes share one prober.
///
/// ```swift
/// let probe = try ConnectivityProbe(url: "http://connectivity-check.ubuntu.com/")  // answers 204
/// ```
public struct ConnectivityProbe: Sendable, Hashable, CustomStringConvertible {
    /// The kind of probe, from the URL's scheme.
    public enum Kind: String, Sendable, Hashable {
        /// `http://`: a GET.
        case http
        /// `https://`: a GET over TLS.
        case https
        /// `tcp://`: a connection.
        case tcp
    }

    /// The URL as given.
    public let url: String
    /// `http`, `https` or `tcp`.
    public let kind: Kind
    /// The host: a name, or an IPv4 or IPv6 address (without brackets).
    public let host: String
    /// The port: from the URL, else 80 for `http://`, 443 for `https://`.
    public let port: UInt16
    /// The request target of an `http://` or `https://` probe (`/` when the URL has no path); empty for `tcp://`.
    public let path: String
    /// The text a status 200 body must contain; nil: only 204 succeeds.
    public let expectedText: String?
    /// How long one probe may take, resolution included. Default 5 s.
    public let timeout: Duration
    /// How long between probes while `full`; the ceiling of the backoff while `limited` or `portal`. Default 300 s.
    public let interval: Duration
    /// For `https://`: a PEM file of the root certificates to trust instead of the system's; nil: the system's.
    public let caFile: String?

    /// Validates a probe.
    ///
    /// - Parameters:
    ///   - url: `http://HOST[:PORT][/PATH]` or `tcp://HOST:PORT`; an IPv6 host in brackets.
    ///   - expecting: for `http://`, a text (not empty) a status 200 body must contain; default nil.
    ///   - timeout: the deadline of one probe, more than zero and at most the interval; nil (the
    ///     default): 5 s, or the interval when that is shorter.
    ///   - interval: the time between probes while `full`; default 300 s.
    ///   - caFile: for `https://`, a PEM file of root certificates to trust in place of the
    ///     system's trust store (a private CA); default nil.
    /// - Throws: `ReachabilityError.invalidProbe` naming what is wrong: another scheme, no host,
    ///   no or a zero port, a space or control character, an empty expected text, a bad timeout or
    ///   interval, a timeout given longer than the interval, or a CA file that is unreadable,
    ///   holds no PEM certificate, or was given for another scheme than `https://`.
    public init(url: String, expecting: String? = nil, timeout: Duration? = nil,
                interval: Duration = .seconds(300), caFile: String? = nil) throws(ReachabilityError) {
        let parts = try ProbeURL.parse(url)
        if parts.kind == .tcp, expecting != nil {
            throw .invalidProbe(url, reason: "an expected text needs an http:// or https:// probe (drop the text, or probe an http:// URL)")
        }
        if let caFile { try ProbeCAFile.validate(caFile, for: url, kind: parts.kind) }
        guard interval > .zero else { throw .invalidProbe(url, reason: "the interval must be more than zero") }
        // A short interval asked for alone is taken as given: the default timeout shrinks to fit it.
        let timeout = timeout ?? min(Self.defaultTimeout, interval)
        guard timeout > .zero else { throw .invalidProbe(url, reason: "the timeout must be more than zero") }
        guard interval >= timeout else {
            throw .invalidProbe(url, reason: "the timeout (\(timeout)) is longer than the interval (\(interval)): "
                                + "give a timeout at most the interval, or a longer interval")
        }
        if expecting?.isEmpty == true {
            throw .invalidProbe(url, reason: "the expected text is empty (any status 200 would pass, a portal's page too): give the text the page holds")
        }
        if let expecting, expecting.utf8.count > ProbeLimits.bodyBytes {
            throw .invalidProbe(url, reason: "the expected text is longer than \(ProbeLimits.bodyBytes) bytes (the body read is capped there): give a shorter one")
        }
        self.url = url
        self.kind = parts.kind
        self.host = parts.host
        self.port = parts.port
        self.path = parts.path
        self.expectedText = expecting
        self.timeout = timeout
        self.interval = interval
        self.caFile = caFile
    }

    /// The timeout when none is given (or the interval, when that is shorter).
    public static let defaultTimeout: Duration = .seconds(5)

    /// `http://192.0.2.1/generate_204`, with ` expecting "ok"` when a text is expected.
    public var description: String {
        expectedText.map { "\(url) expecting \"\($0)\"" } ?? url
    }

    /// `host:port`, with brackets for IPv6: the `Host` header and the base of a relative `Location`.
    package var authority: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return (kind == .http && port == 80) || (kind == .https && port == 443) ? bracketed : "\(bracketed):\(port)"
    }

    /// `http` or `https`: the scheme a relative `Location` inherits.
    package var scheme: String { kind == .https ? "https" : "http" }
}

/// The caps on what a probe reads: a portal's page is not worth more.
package enum ProbeLimits {
    /// The status line and headers, together.
    package static let headBytes = 8 * 1024
    /// The body read while looking for the expected text.
    package static let bodyBytes = 4 * 1024
    /// A `Location` kept as `portalURL`.
    package static let locationBytes = 2048
}
