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
/// A probe (``probe(_:)``), or the network's own captive-portal API (RFC 8908, announced by RFC
/// 8910's DHCP option 114 or IPv6 Router Advertisement option 37: ``captivePortalAPI(_:)``). A
/// struct with a kind word rather than an enum, so that another source does not break a switch.
public struct ConnectivitySource: Sendable, Hashable, CustomStringConvertible {
    /// What answered: `"probe"`, or `"captivePortalAPI"` (the network's RFC 8908 API).
    public var kind: String
    /// The probe's URL, or the captive-portal API's URI.
    public var uri: String

    /// The answer of the network's captive-portal API at `uri`.
    public static func captivePortalAPI(_ uri: String) -> ConnectivitySource {
        ConnectivitySource(kind: "captivePortalAPI", uri: uri)
    }

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
    /// The captive-portal API's answer, when it was fetched and read.
    package var captivePortal: CaptivePortalStatus?

    package init(connectivity: Connectivity, portalURL: String? = nil, source: ConnectivitySource? = nil, detail: String,
                 reason: String? = nil, captivePortal: CaptivePortalStatus? = nil) {
        self.captivePortal = captivePortal
        self.connectivity = connectivity
        self.portalURL = portalURL
        self.source = source
        self.detail = detail
        self.reason = reason
    }
}
