import ReachabilitySystem
/// The parts of a probe URL, checked strictly: the probe sends nothing it did not understand.
package struct ProbeURL: Equatable {
    package var kind: ConnectivityProbe.Kind
    package var host: String
    package var port: UInt16
    package var path: String

    /// What a URL error's message ends with: the forms a probe URL may take.
    package static let formHint = "(give http://HOST[:PORT]/PATH, https://HOST[:PORT]/PATH or tcp://HOST:PORT)"

    package static func parse(_ url: String) throws(ReachabilityError) -> ProbeURL {
        func fail(_ reason: String) -> ReachabilityError { .invalidProbe(url, reason: reason + " " + formHint) }
        if let bad = url.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value >= 0x7f }) {
            throw fail(bad == " " ? "it contains a space (percent-encode it as %20)"
                                  : "it contains a control or non-ASCII character (percent-encode it)")
        }
        let kind: ConnectivityProbe.Kind
        let rest: Substring
        if url.lowercased().hasPrefix("http://") {
            kind = .http
            rest = url.dropFirst(7)
        } else if url.lowercased().hasPrefix("https://") {
            kind = .https
            rest = url.dropFirst(8)
        } else if url.lowercased().hasPrefix("tcp://") {
            kind = .tcp
            rest = url.dropFirst(6)
        } else {
            let scheme = url.firstIndex(of: ":").map { String(url[..<$0]) }
            throw fail(scheme.map { "the scheme '\($0)' is not supported (use http://, https:// or tcp://)" }
                       ?? "it has no scheme (use http://HOST/PATH or tcp://HOST:PORT)")
        }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        if let fragment = path.firstIndex(of: "#") { path = String(path[..<fragment]) }
        if authority.contains("@") { throw fail("user information ('user@') is not supported") }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw fail("an IPv6 address lacks its ']'") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("unexpected text after ']'") }
                portText = after.dropFirst()
            }
            guard (try? IPAddress(String(host))) != nil else { throw fail("'\(host)' is not an IPv6 address") }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw fail("it has no host") }
        if !authority.hasPrefix("["), (try? IPAddress(String(host))) == nil {
            do { _ = try HostName.validate(String(host)) } catch { throw fail("the host is not valid: \(error)") }
        }
        var port: UInt16 = kind == .http ? 80 : kind == .https ? 443 : 0
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
                  portText.count <= 5, let value = Int(portText), value <= 65535 else {
                throw fail("the port '\(portText)' is not a number from 1 to 65535")
            }
            guard value != 0 else { throw fail("port 0 cannot be connected to") }
            port = UInt16(value)
        } else if kind == .tcp {
            throw fail("a tcp:// probe needs a port (tcp://HOST:PORT)")
        }
        if kind == .tcp, !(path.isEmpty || path == "/") { throw fail("a tcp:// probe has no path") }
        if kind != .tcp, path.isEmpty { path = "/" }
        if kind != .tcp, !path.hasPrefix("/") { path = "/" + path }
        return ProbeURL(kind: kind, host: String(host), port: port, path: kind != .tcp ? path : "")
    }
}
