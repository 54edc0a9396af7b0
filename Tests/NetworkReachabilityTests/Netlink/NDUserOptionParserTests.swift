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
        bytes(hex).withUnsafeBytes { NDUserOptionParser.announcement(in: $0) }
    }

    private func read(_ hex: String) -> NDUserOptionParser.Reading {
        bytes(hex).withUnsafeBytes { NDUserOptionParser.read($0) }
    }

    private func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// A captured message with its option's URI replaced by `uri` (padded), for the refusals.
    private func message(uri: [UInt8]) -> String {
        let header = String(Self.captured.prefix(32))
        let attribute = String(Self.captured.dropFirst(96))
        let padded = uri + [UInt8](repeating: 0, count: (8 - (2 + uri.count) % 8) % 8)
        let option = [37, UInt8((2 + padded.count) / 8)] + padded
        let length = String(format: "%02x%02x", option.count & 0xff, option.count >> 8)
        let hex = option.map { String(format: "%02x", $0) }.joined()
        return header.prefix(4) + length + header.dropFirst(8) + hex + attribute
    }

    /// Each hostile value the issue tried is refused with what was wrong, and the value comes back
    /// escaped: printable ASCII only, whatever the bytes were.
    func testRefusals_sayWhy_andEscapeTheValue() {
        let cases: [([UInt8], String, String)] = [
            (Array("http://portal.example/api".utf8), "not an https:// URI", "http://portal.example/api"),
            (Array("javascript:alert(1)".utf8), "not an https:// URI", "javascript:alert(1)"),
            (Array("file:///etc/passwd".utf8), "not an https:// URI", "file:///etc/passwd"),
            (Array("https://p.example/\u{1B}[31m".utf8), "a control byte", "https://p.example/\\x1b[31m"),
            (Array("https://p.example/\r\nX: y".utf8), "a control byte", "https://p.example/\\x0d\\x0aX:\\x20y"),
            (Array("https://p.example/a".utf8) + [0, 0x41], "a NUL byte inside", "https://p.example/a\\x00A"),
            (Array("https://p.example/".utf8) + [0xc2, 0x9b, 0x41], "a byte that is not ASCII", "https://p.example/\\xc2\\x9bA"),
            (Array("https://p.example/".utf8) + [0xff, 0xfe], "a byte that is not ASCII", "https://p.example/\\xff\\xfe"),
            (Array("https://p.example/a b".utf8), "a space", "https://p.example/a\\x20b"),
            (Array("https://".utf8), "no host", "https://"),
        ]
        for (uri, reason, value) in cases {
            guard case .refused(let refusal) = read(message(uri: uri)) else {
                XCTFail("\(value): not refused")
                continue
            }
            XCTAssertEqual(refusal.reason, reason, value)
            XCTAssertEqual(refusal.value, value)
            XCTAssertEqual(refusal.interfaceIndex, 2)
        }
        guard case .refused(let long) = read(message(uri: Array("https://".utf8) + [UInt8](repeating: 0x61, count: 1492))) else {
            return XCTFail("1,500 bytes taken")
        }
        XCTAssertEqual(long.reason, "longer than 1024 bytes")
        XCTAssertTrue(long.value.hasSuffix("... (1500 bytes)"), long.value)
        XCTAssertLessThan(long.value.utf8.count, 120, "a capped excerpt, not the whole value")
        XCTAssertEqual(read(message(uri: Array("https://good.example/x".utf8))),
                       .announcement(.api(interfaceIndex: 2, uri: "https://good.example/x")))
        // An RA without option 37 (an RDNSS one) is not a refused announcement.
        let rdnss = "0a00" + "1800" + "02000000" + "8600000000000000"
            + "1903000000000258" + "20010db8000000000000000000000053" + String(Self.captured.dropFirst(96))
        XCTAssertEqual(read(rdnss), .nothing)
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
        NetworkdLinkRecords.captivePortal(inText: ArraySlice(Array(text.utf8)))
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
