import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// Issue 3, "Bad input": the rules of RFC 1123 host names, each refused with an error that names
/// the rule, and the names at each limit accepted.
final class HostNameTests: XCTestCase {
    private let label63 = String(repeating: "a", count: 63)

    /// A name of exactly `length` bytes made of labels of at most 63 bytes.
    private func name(ofLength length: Int) -> String {
        var labels: [String] = []
        var remaining = length
        while remaining > 0 {
            let size = min(63, remaining - (labels.isEmpty ? 0 : 1))
            labels.append(String(repeating: "x", count: size))
            remaining -= size + (labels.count > 1 ? 1 : 0)
        }
        return labels.joined(separator: ".")
    }

    /// The reason `HostName.validate(name)` gives, failing the test if it accepts the name or
    /// names another input.
    private func reason(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do throws(ReachabilityError) {
            let accepted = try HostName.validate(name)
            XCTFail("\(name.debugDescription) was accepted as \(accepted.debugDescription)", file: file, line: line)
            return nil
        } catch {
            guard case .invalidHostName(let reported, let reason) = error else {
                XCTFail("\(name.debugDescription): \(error), not invalidHostName", file: file, line: line)
                return nil
            }
            XCTAssertEqual(reported, name, "the error names the input as given", file: file, line: line)
            return reason
        }
    }

    private func assertRefused(_ name: String, saying words: String..., file: StaticString = #filePath, line: UInt = #line) {
        guard let reason = reason(name, file: file, line: line) else { return }
        for word in words {
            XCTAssertTrue(reason.contains(word), "the reason for \(name.debugDescription) must say \(word.debugDescription): \(reason)",
                          file: file, line: line)
        }
    }

    // MARK: - Refused

    func testEmptyName_isRefused() {
        assertRefused("", saying: "empty")
    }

    func testNameOver253Bytes_isRefused_andSaysHowLongItIs() {
        let long = name(ofLength: 254)
        XCTAssertEqual(long.utf8.count, 254, "test setup")
        XCTAssertTrue(long.split(separator: ".").allSatisfy { $0.utf8.count <= 63 }, "test setup: only the length is wrong")
        assertRefused(long, saying: "254", "253")
        assertRefused(long + ".", saying: "254", "253")
    }

    func testLabelOver63Bytes_isRefused_andNamesTheLabel() {
        let label64 = String(repeating: "a", count: 64)
        assertRefused("\(label64).example.com", saying: label64, "64", "63")
        assertRefused("www.\(label64)", saying: "64", "63")
    }

    func testCharactersAHostNameCannotHold_areRefused_andNamed() {
        for (name, character) in [
            ("bad name.example", " "), ("bad!.example", "!"), ("a/b.example", "/"), ("a:b.example", ":"),
            ("a*.example", "*"), ("b\u{FC}cher.example", "\u{FC}"), ("tab\t.example", "\t"), ("a@b.example", "@"),
        ] {
            assertRefused(name, saying: "'\(character)'")
        }
    }

    func testNULByte_isRefused() {
        assertRefused("a\u{0}b.example", saying: "NUL")
        assertRefused("example.com\u{0}", saying: "NUL")
    }

    func testTrailingScope_isRefused() {
        assertRefused("printer.local%eth0", saying: "%")
        assertRefused("printer%1", saying: "%")
    }

    func testEmptyLabels_areRefused() {
        assertRefused("a..example", saying: "empty label")
        assertRefused(".example", saying: "empty label")
        assertRefused(".", saying: "empty label")
    }

    func testLabelsStartingOrEndingWithAHyphen_areRefused() {
        assertRefused("-a.example", saying: "-a", "'-'")
        assertRefused("a-.example", saying: "a-", "'-'")
    }

    // MARK: - Accepted

    func testNamesAtTheLimits_areAccepted() throws {
        let longest = name(ofLength: 253)
        XCTAssertEqual(longest.utf8.count, 253, "test setup")
        XCTAssertEqual(try HostName.validate(longest), longest)
        let longestLabel = "\(label63).example"
        XCTAssertEqual(try HostName.validate(longestLabel), longestLabel)
        XCTAssertEqual(try HostName.validate("a"), "a", "one label of one byte")
    }

    func testTrailingDot_isAccepted_andDropped_andDoesNotCountTowardsTheLength() throws {
        XCTAssertEqual(try HostName.validate("example.com."), "example.com")
        let longest = name(ofLength: 253)
        XCTAssertEqual(try HostName.validate(longest + "."), longest, "253 bytes and the root's dot")
    }

    func testOrdinaryNames_areAcceptedAsGiven() throws {
        for name in ["localhost", "example.com", "Mixed-Case.Example", "xn--bcher-kva.example", "_srv.example",
                     "a-b.c-d.example", "123.example", "0-0.example"] {
            XCTAssertEqual(try HostName.validate(name), name)
        }
    }

    func testErrorDescription_isOneLine_evenWithControlCharacters() {
        do throws(ReachabilityError) {
            _ = try HostName.validate("a\nb\u{0}.example")
            XCTFail("accepted")
        } catch {
            XCTAssertFalse(error.description.contains("\n"), error.description)
            XCTAssertFalse(error.description.unicodeScalars.contains { $0.value == 0 }, error.description)
        }
    }
}
