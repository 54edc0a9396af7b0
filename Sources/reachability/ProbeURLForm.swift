/// The mistakes in a `--probe` URL's form that the library's parser would misname, each with the
/// URL written right: a scheme with one slash (`https:/probe.test/`, which the parser reads as an
/// unsupported scheme) and no scheme at all (`probe.test:8443`, whose host it takes for a scheme).
/// Everything else is left to the library (`ConnectivityProbe(url:)`), whose message already names the fix.
enum ProbeURLForm {
    /// The schemes a probe takes.
    private static let schemes = ["https", "http", "tcp"]

    /// What is wrong with `url`'s form and how to write it; nil when the library should judge it.
    static func problem(with url: String) -> String? {
        let lower = url.lowercased()
        for scheme in schemes where lower.hasPrefix(scheme + ":") && !lower.hasPrefix(scheme + "://") {
            let rest = url.dropFirst(scheme.count + 1).drop { $0 == "/" }
            return "'\(scheme):' must be followed by two slashes: write '\(scheme)://\(rest)'"
        }
        guard !url.contains("://"), !url.isEmpty else { return nil }
        // `ftp:x` names a scheme (the library says it is not supported); `host:8443` and `host/path` name none.
        if let colon = url.firstIndex(of: ":") {
            let after = url[url.index(after: colon)...]
            guard after.first?.isNumber == true || url[..<colon].contains(".") else { return nil }
        }
        let authority = url.prefix { $0 != "/" }
        let tcp = authority.contains(":") ? ", or tcp://\(authority) to only connect" : ""
        return "it has no scheme: write 'https://\(url)' (or http:// for plain HTTP\(tcp))"
    }
}
