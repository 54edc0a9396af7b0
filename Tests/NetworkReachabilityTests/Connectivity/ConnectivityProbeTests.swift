@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

final class ConnectivityProbeTests: XCTestCase {
    func testValidURLs() throws {
        let plain = try ConnectivityProbe(url: "http://example.com")
        XCTAssertEqual([plain.kind.rawValue, plain.host, "\(plain.port)", plain.path], ["http", "example.com", "80", "/"])
        XCTAssertEqual(plain.timeout, .seconds(5))
        XCTAssertEqual(plain.interval, .seconds(300))
        let full = try ConnectivityProbe(url: "HTTP://192.0.2.1:8080/generate_204?x=1#frag", expecting: "ok")
        XCTAssertEqual([full.host, "\(full.port)", full.path, full.authority], ["192.0.2.1", "8080", "/generate_204?x=1", "192.0.2.1:8080"])
        let v6 = try ConnectivityProbe(url: "tcp://[2001:db8::1]:443")
        XCTAssertEqual([v6.kind.rawValue, v6.host, "\(v6.port)", v6.path, v6.authority], ["tcp", "2001:db8::1", "443", "", "[2001:db8::1]:443"])
    }

    func testBadInput_typedErrorsNamingTheProblem() {
        let cases: [(String, String)] = [
            ("ftp://x", "the scheme 'ftp' is not supported"),
            ("http://", "it has no host"),
            ("tcp://host", "a tcp:// probe needs a port"),
            ("http://host:0/", "port 0 cannot be connected to"),
            ("http://host/a path", "it contains a space"),
            ("example.com", "it has no scheme"),
            ("http://host:99999/", "is not a number from 1 to 65535"),
            ("http://user@host/", "user information"),
            ("http://[::1/", "lacks its ']'"),
            ("http://bad_name!/", "the host is not valid"),
            ("tcp://host:80/path", "a tcp:// probe has no path"),
        ]
        for (url, reason) in cases {
            XCTAssertThrowsError(try ConnectivityProbe(url: url), url) { error in
                guard case .invalidProbe(let given, let why) = error as? ReachabilityError else { return XCTFail("\(error)") }
                XCTAssertEqual(given, url)
                XCTAssertTrue(why.contains(reason), "\(url): \(why)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
        XCTAssertThrowsError(try ConnectivityProbe(url: "tcp://h:1", expecting: "x"))
        XCTAssertThrowsError(try ConnectivityProbe(url: "http://h/", expecting: ""))
        XCTAssertThrowsError(try ConnectivityProbe(url: "http://h/", timeout: .zero))
        XCTAssertThrowsError(try ConnectivityProbe(url: "http://h/", timeout: .seconds(10), interval: .seconds(5)))
    }

    func testVerdicts_andLocationMadeAbsolute() throws {
        let probe = try ConnectivityProbe(url: "http://192.0.2.1:8080/check/gen_204")
        func answer(_ status: Int, location: String? = nil, body: String = "", expecting: String? = nil) throws -> ConnectivityAnswer {
            let probe = try ConnectivityProbe(url: probe.url, expecting: expecting)
            let head = HTTPResponseHead(status: status, location: location, framing: .untilClose, bodyOffset: 0)
            return ProbeVerdict.answer(for: head, body: Array(body.utf8), probe: probe)
        }
        XCTAssertEqual(try answer(204).connectivity, .full)
        XCTAssertEqual(try answer(200, body: "is ok here", expecting: "ok").connectivity, .full)
        XCTAssertEqual(try answer(200, body: "login", expecting: "ok").connectivity, .portal)
        XCTAssertEqual(try answer(200).connectivity, .portal)
        XCTAssertEqual(try answer(511).connectivity, .portal)
        XCTAssertEqual(try answer(302, location: "/login").portalURL, "http://192.0.2.1:8080/login")
        XCTAssertEqual(try answer(302, location: "login").portalURL, "http://192.0.2.1:8080/check/login")
        XCTAssertEqual(try answer(302, location: "//portal.example/").portalURL, "http://portal.example/")
        XCTAssertEqual(try answer(307, location: "https://portal.example/x").portalURL, "https://portal.example/x")
        XCTAssertNil(try answer(302, location: "bad url").portalURL)
        // RFC 3986 §5.2.2: a colon after the first `/`, `?` or `#` does not make a scheme.
        XCTAssertEqual(try answer(302, location: "login?next=http://x/").portalURL, "http://192.0.2.1:8080/check/login?next=http://x/")
        XCTAssertEqual(try answer(302, location: "/a?b=c:d").portalURL, "http://192.0.2.1:8080/a?b=c:d")
        XCTAssertEqual(try answer(302, location: "../login").portalURL, "http://192.0.2.1:8080/login")
        XCTAssertEqual(try answer(302, location: "../../x/./y").portalURL, "http://192.0.2.1:8080/x/y")
        XCTAssertEqual(try answer(302, location: "#top").portalURL, "http://192.0.2.1:8080/check/gen_204#top")
        XCTAssertEqual(try answer(302, location: "HTTPS://Portal.example/x").portalURL, "HTTPS://Portal.example/x")
        XCTAssertEqual(try answer(302, location: "/login").reason, "redirect")
        XCTAssertEqual(try answer(302, location: "1a:b").portalURL, "http://192.0.2.1:8080/check/1a:b")
        XCTAssertEqual(try answer(302, location: "/login").source, .probe(probe.url))
        XCTAssertTrue(ProbeVerdict.needsBody(status: 200, probe: try ConnectivityProbe(url: probe.url, expecting: "x")))
        XCTAssertFalse(ProbeVerdict.needsBody(status: 200, probe: probe))
    }

    /// Only an `http://` or `https://` URL is surfaced: an application opens `portalURL`, and a
    /// `javascript:` one would run there. Anything else is a portal without a URL that says why.
    func testRedirect_toAnotherScheme_orNoURL_isAPortalWithoutAURL() throws {
        let probe = try ConnectivityProbe(url: "http://192.0.2.1:8080/check/gen_204")
        func answer(_ location: String) -> ConnectivityAnswer {
            ProbeVerdict.answer(for: HTTPResponseHead(status: 302, location: location, framing: .untilClose, bodyOffset: 0),
                                body: [], probe: probe)
        }
        for location in ["javascript:alert(document.cookie)", "JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>",
                         "file:///etc/passwd", "mailto:portal@example", "Portal+1.x-y:z", "vbscript:msgbox", "ftp://portal.example/"] {
            let refused = answer(location)
            XCTAssertEqual(refused.connectivity, .portal, location)
            XCTAssertNil(refused.portalURL, location)
            XCTAssertEqual(refused.reason, "redirect to a non-HTTP URL", location)
        }
        for location in ["http:login", "https:///x", "http://", "bad url", "//", String(repeating: "a", count: 3000)] {
            let refused = answer(location)
            XCTAssertEqual(refused.connectivity, .portal, location)
            XCTAssertNil(refused.portalURL, location)
            XCTAssertEqual(refused.reason, "redirect to a malformed URL", location)
        }
        // The detail (`--verbose`) escapes what is not printable ASCII.
        let hostile = answer("javascript:\u{1B}[31m\u{9B}x")
        XCTAssertFalse(hostile.detail.unicodeScalars.contains { $0.value < 0x20 || $0.value >= 0x7f }, hostile.detail)
        XCTAssertTrue(hostile.detail.contains("javascript:\\x1b[31m\\xc2\\x9bx"), hostile.detail)
    }

    func testLocation_queryOnlyAndScheme_relativeResolvedAgainstTheProbesPath() throws {
        func absolute(_ location: String, base: String) throws -> String? {
            ProbeVerdict.absolute(location, base: try ConnectivityProbe(url: base))
        }
        XCTAssertEqual(try absolute("?a=1", base: "http://h/generate_204"), "http://h/generate_204?a=1")
        XCTAssertEqual(try absolute("?a=1", base: "http://h/generate_204?old=2"), "http://h/generate_204?a=1")
        XCTAssertEqual(try absolute("#f", base: "http://h/generate_204?old=2"), "http://h/generate_204?old=2#f")
        XCTAssertEqual(try absolute("//portal.example/login?x=1", base: "http://h:8080/g"), "http://portal.example/login?x=1")
        XCTAssertEqual(try absolute("/abs", base: "http://h:8080/a/b?q=1"), "http://h:8080/abs")
        XCTAssertEqual(try absolute("rel", base: "http://h:8080/a/b?q=1"), "http://h:8080/a/rel")
        XCTAssertEqual(try absolute("x", base: "http://h"), "http://h/x")
        XCTAssertEqual(try absolute("?a", base: "http://h"), "http://h/?a")
        XCTAssertEqual(ProbeVerdict.removingDotSegments("/a/b/c/./../../g"), "/a/g")
        XCTAssertEqual(ProbeVerdict.removingDotSegments("/a/.."), "/")
        XCTAssertEqual(ProbeVerdict.removingDotSegments("/a/b/."), "/a/b/")
    }
}
