import Foundation
import XCTest

/// The human line in words: `reachable` with the interface and its kind where AFNetworking's
/// `reachableViaWiFi` stood, and on every line that is not reachable, why, as its last column.
extension CommandOutputTests {
    func testHumanLine_reachable_namesTheInterfaceAndItsKind() throws {
        let result = try reachability(["check", "--netns", namespace, "*"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let fields = result.stdout.split(whereSeparator: \.isWhitespace).dropFirst().map(String.init)
        XCTAssertEqual(fields, ["*", "reachable", "-R", "-------", "v0", "wiredEthernet", "10.9.0.2"])
    }

    func testHumanLine_noRoute_saysSo() throws {
        let result = try reachability(["check", "--netns", namespace, "2001:db8::1"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let fields = result.stdout.split(whereSeparator: \.isWhitespace).dropFirst().map(String.init)
        XCTAssertEqual(fields, ["2001:db8::1", "unreachable", "--", "-------", "-", "-", "-", "no", "route"])
    }

    func testHumanLine_noCarrier_saysSoWithTheInterface() throws {
        try ipInNamespace("link", "set", "v1", "down")
        let result = try reachability(["check", "--netns", namespace, "8.8.8.8"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stdout.hasSuffix("  10.9.0.2  no carrier on v0\n"), result.stdout)
        XCTAssertEqual(result.stdout.split(whereSeparator: \.isWhitespace)[2], "unreachable", result.stdout)
    }

    /// An `unreachable`, `prohibit` or `blackhole` route is told apart from no route, in the human
    /// line's words and in the JSON's, one word each; a `throw` route reads as no route.
    func testHumanLineAndJSON_nameTheTypeOfTheRouteThatRefused() throws {
        let routes = [
            ("unreachable", "192.0.2.0/24", "192.0.2.1", "unreachable route", "unreachableRoute"),
            ("prohibit", "198.51.100.0/24", "198.51.100.1", "prohibited by route", "prohibitedRoute"),
            ("blackhole", "203.0.113.0/24", "203.0.113.1", "blackhole route", "blackholeRoute"),
            ("throw", "100.64.0.0/24", "100.64.0.1", "no route", "noRoute"),
        ]
        for (type, prefix, target, words, word) in routes {
            try ipInNamespace("route", "add", type, prefix)
            let human = try reachability(["check", "--netns", namespace, target])
            XCTAssertEqual(human.status, 1, human.stderr)
            XCTAssertTrue(human.stdout.hasSuffix("  -  \(words)\n"), "\(type): \(human.stdout)")
            let json = try reachability(["check", "--json", "--netns", namespace, target])
            let path = try XCTUnwrap(try parseRecord(json.stdout)["path"] as? [String: Any], json.stdout)
            XCTAssertEqual(path["status"] as? String, "unsatisfied", json.stdout)
            XCTAssertEqual(path["unsatisfiedReason"] as? String, word, "\(type): \(json.stdout)")
        }
    }

    func testHumanLine_noCarrier_isNoCarrierInTheJSON() throws {
        try ipInNamespace("link", "set", "v1", "down")
        let json = try reachability(["check", "--json", "--netns", namespace, "8.8.8.8"])
        XCTAssertEqual(json.status, 1, json.stderr)
        let path = try XCTUnwrap(try parseRecord(json.stdout)["path"] as? [String: Any], json.stdout)
        XCTAssertEqual(path["status"] as? String, "unsatisfied", json.stdout)
        XCTAssertEqual(path["unsatisfiedReason"] as? String, "noCarrier", json.stdout)
    }

    func testHumanLine_localAddressNotHere_saysSo_andStarIsAnyRemote() throws {
        let elsewhere = try reachability(["check", "--netns", namespace, "--local", "10.9.0.9", "8.8.8.8"])
        XCTAssertEqual(elsewhere.status, 1, elsewhere.stderr)
        XCTAssertTrue(elsewhere.stdout.hasSuffix("  -  local address not on this host\n"), elsewhere.stdout)
        let anyRemote = try reachability(["check", "--netns", namespace, "--local", "10.9.0.1", "*"])
        XCTAssertEqual(anyRemote.status, 0, anyRemote.stderr)
        XCTAssertEqual(anyRemote.stdout.split(whereSeparator: \.isWhitespace).dropFirst().first, "10.9.0.1->*", anyRemote.stdout)
    }

    func testWatch_star_isTheGeneralPath() throws {
        let result = try reachability(["watch", "--count", "1", "--netns", namespace, "*"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(whereSeparator: \.isWhitespace).dropFirst().prefix(2), ["*", "reachable"])
    }

    func testJSON_keepsItsStatusWords() throws {
        let result = try reachability(["check", "--json", "--netns", namespace, "*"])
        let record = try parseRecord(result.stdout)
        XCTAssertEqual(record["target"] as? String, "*")
        XCTAssertEqual(record["status"] as? String, "reachableViaWiFi", "the JSON keeps AFNetworking's words")
    }
}
