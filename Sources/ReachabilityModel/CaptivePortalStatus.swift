import ReachabilitySystem
/// What a network's captive-portal API (RFC 8908) answered: whether the client is held by a
/// portal, where the user signs in, and what is left of the session.
///
/// A monitor fetches it only when asked (a ``ConnectivityProbe``, or
/// ``PathMonitor/fetchesCaptivePortalAPI``) and only when the network announced the API
/// (``NetworkPath/captivePortalAPI``); it is then on ``NetworkPath/captivePortal``. The JSON keys
/// are the command's (`path.captivePortal`), camelCase, not the API's own kebab-case ones.
public struct CaptivePortalStatus: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `captive`: whether the client is held by the portal (true) or may reach the internet (false).
    public var captive: Bool
    /// `user-portal-url`: the page where the user signs in or accepts terms (an `https://` URL).
    public var userPortalURL: String?
    /// `venue-info-url`: a page about the venue (an `https://` URL).
    public var venueInfoURL: String?
    /// `can-extend-session`: whether the user can extend the session at the portal's page.
    public var canExtendSession: Bool?
    /// `seconds-remaining`: the seconds left before the session ends (a fraction rounded down).
    public var secondsRemaining: Int64?
    /// `bytes-remaining`: the bytes left before the session ends (a fraction rounded down).
    public var bytesRemaining: Int64?

    /// Makes a value; the library makes them from the API's answer, tests and adapters may too.
    public init(captive: Bool, userPortalURL: String? = nil, venueInfoURL: String? = nil,
                canExtendSession: Bool? = nil, secondsRemaining: Int64? = nil, bytesRemaining: Int64? = nil) {
        self.captive = captive
        self.userPortalURL = userPortalURL
        self.venueInfoURL = venueInfoURL
        self.canExtendSession = canExtendSession
        self.secondsRemaining = secondsRemaining
        self.bytesRemaining = bytesRemaining
    }

    private enum CodingKeys: String, CodingKey {
        case captive, userPortalURL, venueInfoURL, canExtendSession, secondsRemaining, bytesRemaining
    }

    /// Encodes every key, null when absent: the record's shape does not depend on what the API said.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(captive, forKey: .captive)
        try container.encode(userPortalURL, forKey: .userPortalURL)
        try container.encode(venueInfoURL, forKey: .venueInfoURL)
        try container.encode(canExtendSession, forKey: .canExtendSession)
        try container.encode(secondsRemaining, forKey: .secondsRemaining)
        try container.encode(bytesRemaining, forKey: .bytesRemaining)
    }

    /// `captive portal https://portal.example/ 300 s left`, or `not captive`.
    public var description: String {
        var text = captive ? "captive" : "not captive"
        if let userPortalURL { text += " portal \(userPortalURL)" }
        if let secondsRemaining { text += " \(secondsRemaining) s left" }
        if let bytesRemaining { text += " \(bytesRemaining) bytes left" }
        return text
    }
}
