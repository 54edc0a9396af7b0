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
