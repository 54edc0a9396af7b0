/// What an HTTP answer means for connectivity: the contract's table, as pure functions.
enum ProbeVerdict {
    /// Whether the body must be read before deciding: only a 200 when a text is expected.
    static func needsBody(status: Int, probe: ConnectivityProbe) -> Bool {
        status == 200 && probe.expectedText != nil
    }

    /// The answer for a response head, and the body read so far (empty when not needed).
    static func answer(for head: HTTPResponseHead, body: [UInt8], probe: ConnectivityProbe) -> ConnectivityAnswer {
        let source = ConnectivitySource.probe(probe.url)
        if head.status == 204 {
            return ConnectivityAnswer(connectivity: .full, source: source, detail: "status 204")
        }
        if head.status == 200, let expected = probe.expectedText {
            if contains(body, Array(expected.utf8)) {
                return ConnectivityAnswer(connectivity: .full, source: source, detail: "status 200 with the expected text")
            }
            return ConnectivityAnswer(connectivity: .portal, source: source, detail: "status 200 without the expected text")
        }
        if (300...399).contains(head.status), let location = head.location {
            return ConnectivityAnswer(connectivity: .portal, portalURL: absolute(location, base: probe), source: source,
                                      detail: "status \(head.status) to \(location)")
        }
        return ConnectivityAnswer(connectivity: .portal, source: source, detail: "status \(head.status)")
    }

    /// A `Location` made absolute against the probe's URL (RFC 9110 §10.2.2 allows a relative one);
    /// nil when it is too long or holds what a URL may not.
    static func absolute(_ location: String, base probe: ConnectivityProbe) -> String? {
        guard !location.isEmpty, location.utf8.count <= ProbeLimits.locationBytes,
              location.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else {
            return nil
        }
        let lowered = location.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return location }
        if location.hasPrefix("//") { return "http:" + location }
        let origin = "http://\(probe.authority)"
        if location.hasPrefix("/") { return origin + location }
        if location.contains(":") { return location } // another scheme, kept as given
        let path = probe.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let directory = path.lastIndex(of: "/").map { path[...$0] } ?? "/"
        return origin + directory + location
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
