import ReachabilitySystem
/// Whether the internet (or the service a probe names) answers over a path: the question the
/// flags do not answer. See ``ConnectivityProbe``.
public enum Connectivity: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// No probe is configured, or the path changed and has not been probed since.
    case unknown
    /// The path is not satisfied; no probe is sent.
    case none
    /// The path is satisfied but the probe failed: the name did not resolve, the connection was
    /// refused, reset or timed out, or the answer was not HTTP.
    case limited
    /// HTTP answered, but not as expected: a redirect (see ``NetworkPath/portalURL``), another
    /// status, or a body without the expected text. A captive portal, most often.
    case portal
    /// The probe succeeded.
    case full

    /// The word `reachability` prints: `unknown`, `none`, `limited`, `portal` or `full`.
    public var description: String { rawValue }
}

/// Where a path's connectivity answer came from.
///
/// Today only a probe answers (``probe(_:)``). A network can also announce a captive portal
/// itself (RFC 8910: DHCP option 114, IPv6 Router Advertisement option 37, pointing at an
/// RFC 8908 API); that answer will carry its own kind and the API's URI, so this is a struct
/// with a kind word rather than an enum that would have to grow a case.
public struct ConnectivitySource: Sendable, Hashable, CustomStringConvertible {
    /// What answered: `"probe"` today; `"captivePortalAPI"` is reserved for RFC 8908.
    public var kind: String
    /// The probe's URL, or the captive-portal API's URI.
    public var uri: String

    /// The answer of the probe at `url`.
    public static func probe(_ url: String) -> ConnectivitySource {
        ConnectivitySource(kind: "probe", uri: url)
    }

    /// `probe http://192.0.2.1/generate_204`.
    public var description: String { "\(kind) \(uri)" }
}

/// One answer about connectivity, as a probe (or later a network's captive-portal API) gives it.
package struct ConnectivityAnswer: Sendable, Hashable {
    package var connectivity: Connectivity
    package var portalURL: String?
    package var source: ConnectivitySource?
    /// Why, for the log: "connect: ECONNREFUSED", "status 302".
    package var detail: String
    /// Why, in ``NetworkPath/connectivityReason``'s words (`ConnectivityReason`); nil for `full`.
    package var reason: String? = nil

    package init(connectivity: Connectivity, portalURL: String? = nil, source: ConnectivitySource? = nil, detail: String, reason: String? = nil) {
        self.connectivity = connectivity
        self.portalURL = portalURL
        self.source = source
        self.detail = detail
        self.reason = reason
    }
}
