import ReachabilityModel
import ReachabilitySystem

/// The RFC 8908 API's JSON object, read strictly: `captive` must be there and a boolean, each
/// other known key of its type when present (a URL `https://`, printable ASCII, capped; a count
/// finite and not negative); unknown keys are ignored, as the RFC asks of clients.
package enum CaptivePortalAPIAnswer {
    /// The cap on the API's body: an answer is a few hundred bytes; a larger one is not read further.
    package static let bodyBytes = 16 * 1024
    /// The media type the API answers with (RFC 8908 §5).
    package static let mediaType = "application/captive+json"

    /// The API's answer in `body`. - Returns: the status, or why the answer is refused.
    package static func parse(_ body: [UInt8]) -> Result<CaptivePortalStatus, StrictJSON.ParseError> {
        var limits = StrictJSON.Limits()
        limits.bytes = bodyBytes
        let object: [String: StrictJSON.Value]
        switch StrictJSON.parse(body, limits: limits) {
        case .failure(let error): return .failure(error)
        case .success(.object(let members)): object = members
        case .success: return .failure(StrictJSON.ParseError("not a JSON object"))
        }
        do throws(StrictJSON.ParseError) {
            guard case .bool(let captive) = object["captive"] else {
                throw StrictJSON.ParseError("no boolean 'captive'")
            }
            return .success(CaptivePortalStatus(
                captive: captive,
                userPortalURL: try url(object, "user-portal-url"),
                venueInfoURL: try url(object, "venue-info-url"),
                canExtendSession: try bool(object, "can-extend-session"),
                secondsRemaining: try count(object, "seconds-remaining"),
                bytesRemaining: try count(object, "bytes-remaining")))
        } catch {
            return .failure(error)
        }
    }

    private static func url(_ object: [String: StrictJSON.Value], _ key: String) throws(StrictJSON.ParseError) -> String? {
        guard let value = object[key] else { return nil }
        // A page the user is sent to: RFC 8908 §5 says HTTPS; anything else is the network's mistake.
        guard case .string(let text) = value, text.hasPrefix("https://"), text.utf8.count > 8,
              text.utf8.count <= ProbeLimits.locationBytes,
              text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else {
            throw StrictJSON.ParseError("'\(key)' is not an https:// URL")
        }
        return text
    }

    private static func bool(_ object: [String: StrictJSON.Value], _ key: String) throws(StrictJSON.ParseError) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else { throw StrictJSON.ParseError("'\(key)' is not a boolean") }
        return flag
    }

    private static func count(_ object: [String: StrictJSON.Value], _ key: String) throws(StrictJSON.ParseError) -> Int64? {
        guard let value = object[key] else { return nil }
        guard case .number(let number) = value, number >= 0, number < 9.0e18 else {
            throw StrictJSON.ParseError("'\(key)' is not a count")
        }
        return Int64(number.rounded(.down))
    }
}
