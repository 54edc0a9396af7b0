import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
/// What an HTTP answer means for connectivity: the contract's table, as pure functions.
package enum ProbeVerdict {
    /// Whether the body must be read before deciding: only a 200 when a text is expected.
    package static func needsBody(status: Int, probe: ConnectivityProbe) -> Bool {
        status == 200 && probe.expectedText != nil
    }

    /// The answer for a response head, and the body read so far (empty when not needed).
    package static func answer(for head: HTTPResponseHead, body: [UInt8], probe: ConnectivityProbe) -> ConnectivityAnswer {
        let source = ConnectivitySource.probe(probe.url)
        if head.status == 204 {
            return ConnectivityAnswer(connectivity: .full, source: source, detail: "status 204")
        }
        if head.status == 200, let expected = probe.expectedText {
            if contains(body, Array(expected.utf8)) {
                return ConnectivityAnswer(connectivity: .full, source: source, detail: "status 200 with the expected text")
            }
            return ConnectivityAnswer(connectivity: .portal, source: source, detail: "status 200 without the expected text",
                                      reason: ConnectivityReason.missingText)
        }
        if (300...399).contains(head.status), let location = head.location {
            // The detail goes to `--verbose` logs: a hostile `Location` is escaped, never echoed.
            let detail = "status \(head.status) to \(EscapedBytes.text(location))"
            switch portalURL(location, base: probe) {
            case .success(let url):
                return ConnectivityAnswer(connectivity: .portal, portalURL: url, source: source, detail: detail,
                                          reason: ConnectivityReason.redirect)
            case .failure(let refusal):
                return ConnectivityAnswer(connectivity: .portal, source: source, detail: detail + ", not kept as portalURL",
                                          reason: refusal.reason)
            }
        }
        return ConnectivityAnswer(connectivity: .portal, source: source, detail: "status \(head.status)",
                                  reason: ConnectivityReason.status(head.status))
    }

    /// Why a redirect's `Location` is not surfaced as `portalURL`.
    package enum RedirectRefusal: Error, Equatable {
        /// Another scheme than `http` or `https`: `javascript:` would run where the URL is opened.
        case notHTTP
        /// Not a URL the probe can make absolute, or an `http(s)` one without a host.
        case malformed

        package var reason: String {
            self == .notHTTP ? ConnectivityReason.redirectNotHTTP : ConnectivityReason.redirectMalformed
        }
    }

    /// The `portalURL` a redirect to `location` surfaces: only an `http://` or `https://` URL with
    /// a host, a relative reference made absolute against the probe's URL first (`absolute`).
    package static func portalURL(_ location: String, base probe: ConnectivityProbe) -> Result<String, RedirectRefusal> {
        if hasScheme(location), let colon = location.firstIndex(of: ":"),
           !["http", "https"].contains(location[..<colon].lowercased()) {
            return .failure(.notHTTP)
        }
        // `http:login` (no `//`) or `http:///x` (no host) is of the web's scheme, but nothing to open.
        guard let url = absolute(location, base: probe),
              let scheme = ["http://", "https://"].first(where: { url.lowercased().hasPrefix($0) }),
              let first = url.dropFirst(scheme.count).first, !"/?#".contains(first) else {
            return .failure(.malformed)
        }
        return .success(url)
    }

    /// A `Location` made absolute against the probe's URL (RFC 9110 §10.2.2 allows a relative one),
    /// resolved as RFC 3986 §5.2.2 says; nil when it is too long or holds what a URL may not.
    package static func absolute(_ location: String, base probe: ConnectivityProbe) -> String? {
        guard !location.isEmpty, location.utf8.count <= ProbeLimits.locationBytes,
              location.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else {
            return nil
        }
        if hasScheme(location) { return location } // absolute: `portalURL` decides whether its scheme may be shown
        if location.hasPrefix("//") { return probe.scheme + ":" + location } // the probe's scheme, another host
        let origin = "\(probe.scheme)://\(probe.authority)"
        let (basePath, baseQuery) = splitQuery(Substring(probe.path.isEmpty ? "/" : probe.path))
        // The reference's parts: path, then `?query`, then `#fragment` (each kept with its mark).
        let fragmentStart = location.firstIndex(of: "#") ?? location.endIndex
        let (path, query) = splitQuery(location[..<fragmentStart])
        let fragment = String(location[fragmentStart...])
        if path.isEmpty {
            // `?a=1` replaces only the query, `#f` only the fragment: the path stays the probe's.
            return origin + String(basePath) + String(query ?? baseQuery ?? "") + fragment
        }
        // A relative path replaces the base's last segment (RFC 3986 §5.2.3).
        let directory = basePath.lastIndex(of: "/").map { String(basePath[...$0]) } ?? "/"
        let merged = path.hasPrefix("/") ? String(path) : directory + String(path)
        return origin + removingDotSegments(merged) + String(query ?? "") + fragment
    }

    /// Whether `reference` starts with a scheme, `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`
    /// (RFC 3986 §3.1): a colon further on, after a `/`, `?` or `#`, belongs to a relative one.
    package static func hasScheme(_ reference: String) -> Bool {
        guard let colon = reference.firstIndex(of: ":") else { return false }
        let scheme = reference[..<colon].unicodeScalars
        guard let first = scheme.first, isLetter(first) else { return false }
        return scheme.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// `path?query` split at the first `?`; the query keeps its `?`.
    private static func splitQuery(_ text: Substring) -> (Substring, Substring?) {
        guard let mark = text.firstIndex(of: "?") else { return (text, nil) }
        return (text[..<mark], text[mark...])
    }

    /// RFC 3986 §5.2.4: `.` and `..` segments resolved, so `../login` cannot climb above the root.
    package static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() // before the leading `/`
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") } // `/a/.` is the directory `/a/`
            case "..":
                _ = output.popLast()
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
