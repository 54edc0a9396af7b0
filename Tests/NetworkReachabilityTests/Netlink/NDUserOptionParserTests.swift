@testable import NetworkReachabilityCore
import XCTest
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// RFC 8910's option 37 out of `RTM_NEWNDUSEROPT` payloads, as Linux 6.18 sent one (captured).
final class NDUserOptionParserTests: XCTestCase {
    /// nduseroptmsg (AF_INET6, 32 bytes of options, ifindex 2, RA), option 37, NDUSEROPT_SRCADDR fe80::….
    private static let captured = "0a002000020000008600000000000000"
        + "250468747470733a2f2f706f7274616c2e6578616d706c652f61706900000000" + "14000100fe80000000000000c48942fffea9952d"

    private func parse(_ hex: String) -> NDUserOptionParser.Announcement? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes.withUnsafeBytes { NDUserOptionParser.announcement(in: $0) }
    }

    func testCapturedMessage() {
        XCTAssertEqual(parse(Self.captured), .api(interfaceIndex: 2, uri: "https://portal.example/api"))
    }

    func testMalformed_isNothing() {
        let header = String(Self.captured.prefix(32))
        let option = String(Self.captured.dropFirst(32).prefix(64))
        let attribute = String(Self.captured.dropFirst(96))
        XCTAssertNil(parse(String(Self.captured.prefix(30))), "short header")
        XCTAssertNil(parse("02" + Self.captured.dropFirst(2)), "not AF_INET6")
        XCTAssertNil(parse(header.replacingOccurrences(of: "86000000", with: "87000000") + option + attribute), "not an RA")
        XCTAssertNil(parse(header + "2500" + option.dropFirst(4) + attribute), "option length 0")
        XCTAssertNil(parse(header + "2505" + option.dropFirst(4) + attribute), "option longer than the options")
        XCTAssertNil(parse(header + option + "14000100" + "20010db8" + attribute.dropFirst(16)), "sender not link-local")
        let control = option.replacingOccurrences(of: "2f617069", with: "2f610169")
        XCTAssertNil(parse(header + control + attribute), "a control character")
        let nul = option.replacingOccurrences(of: "2f617069", with: "2f610069")
        XCTAssertNil(parse(header + nul + attribute), "a NUL inside")
        XCTAssertNil(parse(header.replacingOccurrences(of: "00200002", with: "00200000") + option + attribute), "interface 0")
    }

    func testURIRules() {
        func uri(_ text: String) -> String? { Array(text.utf8).withUnsafeBytes { NDUserOptionParser.uri($0) } }
        XCTAssertEqual(uri("https://p.example/x\0\0\0"), "https://p.example/x", "NUL padding dropped")
        XCTAssertEqual(uri("urn:ietf:params:capport:unrestricted"), "urn:ietf:params:capport:unrestricted")
        XCTAssertNil(uri("http://p.example/"))
        XCTAssertNil(uri("https://"))
        XCTAssertNil(uri(""))
        XCTAssertNil(uri("https://" + String(repeating: "a", count: 1100)))
    }
}

/// networkd's link state file: the `CAPTIVE_PORTAL=` line, checked as an RA's URI.
final class NetworkdLinkStateTests: XCTestCase {
    private func portal(_ text: String) -> String? {
        NetworkdCaptivePortals.captivePortal(inText: ArraySlice(Array(text.utf8)))
    }

    func testCaptivePortalLine() {
        XCTAssertEqual(portal("# private\nADMIN_STATE=configured\nCAPTIVE_PORTAL=https://p.example/api\nDNS=10.0.0.1\n"),
                       "https://p.example/api")
        XCTAssertNil(portal("ADMIN_STATE=configured\n"))
        XCTAssertNil(portal("CAPTIVE_PORTAL=http://p.example/\n"), "not https")
        XCTAssertNil(portal("CAPTIVE_PORTAL=https://p.example/\u{1B}[31m\n"), "a control character")
        XCTAssertNil(portal("X_CAPTIVE_PORTAL=https://p.example/\n"), "another key")
    }
}
