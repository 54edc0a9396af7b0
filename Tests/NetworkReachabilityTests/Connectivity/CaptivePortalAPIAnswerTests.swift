import ReachabilityConnectivity
import ReachabilityModel
import Foundation
import XCTest

final class CaptivePortalAPIAnswerTests: XCTestCase {
    private func parse(_ text: String) -> Result<CaptivePortalStatus, StrictJSON.ParseError> {
        CaptivePortalAPIAnswer.parse(Array(text.utf8))
    }

    func testRFC8908Example_allKeys() throws {
        let text = """
            {"captive": false, "user-portal-url": "https://example.org/portal.html",
             "venue-info-url": "https://flight.example.com/entertainment",
             "seconds-remaining": 326, "bytes-remaining": 65536.5, "can-extend-session": true, "other": [1, {"a": null}]}
            """
        let status = try parse(text).get()
        XCTAssertEqual(status, CaptivePortalStatus(
            captive: false, userPortalURL: "https://example.org/portal.html",
            venueInfoURL: "https://flight.example.com/entertainment", canExtendSession: true,
            secondsRemaining: 326, bytesRemaining: 65536))
        XCTAssertEqual(try parse(#"{"captive":true}"#).get(), CaptivePortalStatus(captive: true))
    }

    func testRefusedAnswers_sayWhy() {
        let cases: [(String, String)] = [
            ("", "unexpected end"),
            ("[]", "not a JSON object"),
            ("{}", "no boolean 'captive'"),
            (#"{"captive":"yes"}"#, "no boolean 'captive'"),
            (#"{"captive":true,}"#, "expected a key"),
            (#"{"captive":true} x"#, "bytes after the value"),
            (#"{"captive":true,"captive":false}"#, "duplicate key"),
            (#"{"captive":true,"user-portal-url":"http://a/"}"#, "not an https:// URL"),
            (#"{"captive":true,"user-portal-url":"https://a/ b"}"#, "not an https:// URL"),
            (#"{"captive":true,"seconds-remaining":-1}"#, "not a count"),
            (#"{"captive":true,"seconds-remaining":01}"#, "expected ',' or '}'"),
            (#"{"captive":true,"bytes-remaining":1e999}"#, "out of range"),
            (#"{"captive":true,"can-extend-session":1}"#, "not a boolean"),
            ("{\"captive\":true,\"x\":\"a\u{01}\"}", "control character"),
            (#"{"captive":true,"x":"\ud800"}"#, "lone high surrogate"),
            (#"{"captive":true,"x":"\udc00"}"#, "lone low surrogate"),
            (#"{"captive":true,"x":"\q"}"#, "unknown escape"),
            (#"{"captive":tru}"#, "not a JSON value"),
            (#"{"captive":true,"x":1.}"#, "fraction without digits"),
        ]
        for (text, why) in cases {
            switch parse(text) {
            case .success(let status): XCTFail("\(text) parsed as \(status)")
            case .failure(let error): XCTAssertTrue(error.description.contains(why), "\(text): \(error)")
            }
        }
    }

    func testCaps_depthMembersStringsAndSize() {
        let deep = #"{"captive":true,"x":"# + String(repeating: "[", count: 20) + String(repeating: "]", count: 20) + "}"
        XCTAssertTrue("\(parse(deep))".contains("nested deeper"))
        let many = #"{"captive":true"# + (0..<100).map { #","k\#($0)":0"# }.joined() + "}"
        XCTAssertTrue("\(parse(many))".contains("more than 64 members"))
        let long = #"{"captive":true,"x":""# + String(repeating: "a", count: 5000) + #""}"#
        XCTAssertTrue("\(parse(long))".contains("longer than 4096"))
        let big = #"{"captive":true,"x":""# + String(repeating: " ", count: 17_000) + #""}"#
        XCTAssertTrue("\(parse(big))".contains("longer than 16384 bytes"))
    }

    func testStrings_escapesAndUTF8() throws {
        let value = try StrictJSON.parse(Array(#"["a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "é"]"#.utf8)).get()
        XCTAssertEqual(value, .array([.string("a\"\\/\u{08}\u{0C}\n\r\té😀"), .string("é")]))
        XCTAssertThrowsError(try StrictJSON.parse([0x22, 0xff, 0x22]).get())
        XCTAssertEqual(try StrictJSON.parse(Array(" -0.5e+1 ".utf8)).get(), .number(-5))
    }

    func testContentType_mediaTypeLowercasedWithoutParameters_oneOnly() throws {
        let parsed = HTTPResponseParser.parseHead(Array("HTTP/1.1 200 OK\r\nContent-Type: Application/Captive+JSON ; charset=utf-8\r\n\r\n".utf8))
        guard case .head(let head) = parsed else { return XCTFail("\(parsed)") }
        XCTAssertEqual(head.contentType, CaptivePortalAPIAnswer.mediaType)
        let two = HTTPResponseParser.parseHead(Array("HTTP/1.1 200 OK\r\nContent-Type: a/b\r\nContent-Type: c/d\r\n\r\n".utf8))
        XCTAssertEqual(two, .malformed("two Content-Type headers"))
    }

    func testCodable_keysOfTheContract() throws {
        let status = CaptivePortalStatus(captive: true, userPortalURL: "https://p/")
        let data = try JSONEncoder().encode(status)
        let keys = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any]).keys.sorted()
        XCTAssertEqual(keys, ["bytesRemaining", "canExtendSession", "captive", "secondsRemaining", "userPortalURL", "venueInfoURL"])
        XCTAssertEqual(try JSONDecoder().decode(CaptivePortalStatus.self, from: data), status)
    }
}
