import Foundation
import XCTest

/// `reachability interfaces`: one JSON object per interface per line, or an aligned table.
///
/// Until the library can list every interface, the command lists the usable ones (up, with
/// carrier and an address) and leaves flags, operstate, carrier and addresses unknown (`null`,
/// `?`): the assertions accept unknown values, and check known ones against the kernel.
final class CommandInterfacesTests: CommandTestCase {
    private static let keys = ["index", "name", "type", "flags", "operstate", "carrier", "addresses", "isExpensive", "isConstrained", "linkQuality"]

    func testNetnsValue_withASlashIsAPath_elseAName() throws {
        let byName = try reachability(["interfaces", "--json", "--netns", namespace])
        let byPath = try reachability(["interfaces", "--json", "--netns", "/run/netns/\(namespace)"])
        XCTAssertEqual(byName.status, 0, "stderr: \(byName.stderr)")
        XCTAssertEqual(byPath.stdout, byName.stdout, "the same namespace, by path and by name")
        let relative = try reachability(["interfaces", "--json", "--netns", "./\(namespace)"])
        XCTAssertNotEqual(relative.status, 0, "./NAME is a path (missing here), not a name")
        XCTAssertTrue(relative.stderr.contains("./\(namespace)"), relative.stderr)
    }

    func testInterfacesJSON_isOneObjectPerLine_withV0AsTheKernelHasIt() throws {
        let result = try reachability(["interfaces", "--json", "--netns", namespace])
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        XCTAssertEqual(result.stderr, "", "nothing on stderr with --json")
        XCTAssertTrue(result.stdout.hasSuffix("\n"))
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let objects = try lines.map { line in
            assertKeyOrder(line, Self.keys)
            return try parseRecord(line)
        }
        for object in objects {
            XCTAssertEqual(Set(object.keys), Set(Self.keys), "\(object)")
        }
        let indexes = objects.compactMap { $0["index"] as? Int }
        XCTAssertEqual(indexes, indexes.sorted(), "by index")

        let v0 = try XCTUnwrap(objects.first { $0["name"] as? String == "v0" }, "v0 is listed: \(result.stdout)")
        let kernelIndex = try XCTUnwrap(Int(runIP("-n", namespace, "-o", "link", "show", "v0").prefix { $0 != ":" }))
        XCTAssertEqual(v0["index"] as? Int, kernelIndex)
        XCTAssertEqual(v0["type"] as? String, "wiredEthernet")
        XCTAssertEqual(v0["isExpensive"] as? Bool, false)
        XCTAssertEqual(v0["isConstrained"] as? Bool, false)
        XCTAssertEqual(v0["linkQuality"] as? String, "good", "a veth: 10 Gb/s, full duplex")
        if let flags = v0["flags"] as? [String] {
            XCTAssertTrue(Set(flags).isSuperset(of: ["UP", "LOWER_UP", "BROADCAST", "MULTICAST"]), "\(flags)")
        } else {
            XCTAssertTrue(v0["flags"] is NSNull, "flags: an array or null")
        }
        if let addresses = v0["addresses"] as? [String] {
            XCTAssertEqual(addresses, ["10.9.0.1/24"])
        } else {
            XCTAssertTrue(v0["addresses"] is NSNull, "addresses: an array or null")
        }
        if let carrier = v0["carrier"] as? Bool { XCTAssertTrue(carrier) } else { XCTAssertTrue(v0["carrier"] is NSNull) }
        if let operstate = v0["operstate"] as? String { XCTAssertEqual(operstate, "UP") } else { XCTAssertTrue(v0["operstate"] is NSNull) }
    }

    func testInterfacesTable_isAlignedWithAHeader() throws {
        let result = try reachability(["interfaces", "--netns", namespace])
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        XCTAssertFalse(result.stdout.contains("\u{1B}"), "no colour into a pipe")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertGreaterThanOrEqual(lines.count, 2, "a header and v0: \(result.stdout)")
        let header = try XCTUnwrap(lines.first)
        XCTAssertEqual(header.split(separator: " ").map(String.init),
                       ["INDEX", "NAME", "TYPE", "OPERSTATE", "CARRIER", "EXPENSIVE", "FLAGS", "ADDRESSES", "QUALITY"])
        let columnStarts = Self.wordStarts(header)
        for line in lines.dropFirst() {
            XCTAssertEqual(Self.wordStarts(line), columnStarts, "aligned under the header:\n\(header)\n\(line)")
        }
        let v0 = try XCTUnwrap(lines.first { $0.split(separator: " ").dropFirst().first == "v0" }, result.stdout)
        XCTAssertEqual(v0.split(separator: " ")[2], "wiredEthernet")
    }

    // MARK: - Helpers

    /// Runs `ip ARGUMENTS` and returns its output.
    private func runIP(_ arguments: String...) throws -> String {
        let result = try Self.run(Self.ipPath, arguments)
        guard result.status == 0 else { throw Failure("ip \(arguments) failed: \(result.stderr)") }
        return result.stdout
    }

    /// The offsets at which the words of `line` start.
    private static func wordStarts(_ line: String) -> [Int] {
        var starts: [Int] = []
        var previous: Character = " "
        for (offset, character) in line.enumerated() {
            if character != " " && previous == " " { starts.append(offset) }
            previous = character
        }
        return starts
    }
}
