import Foundation
import NetworkReachability
import XCTest

/// One JSON shape for a path: the library's `NetworkPath` encoding is a record's `path` object
/// plus exactly the keys docs/cli-notes.md ("The library's JSON of a path") lists, no more, no
/// fewer, with the same values. Both are made here from the same namespace and compared.
final class JSONShapeTests: CommandTestCase {
    /// The keys a path adds to a record's `path` object, and those its interfaces add.
    private static let pathExtras: Set = ["flags", "addresses", "addressesAreStale"]
    private static let interfaceExtras: Set = ["kind", "isExpensive", "isConstrained", "isUltraConstrained"]

    func testAddressTarget_libraryJSON_isTheRecordsPath_plusFlagsAndTheInterfacesKind() throws {
        // Given: the command's record and a monitor's path of the same target (over the veth v0)
        let (record, recordPath) = try checkRecord("10.9.0.7")
        let path = try PathMonitor(address: "10.9.0.7", namespace: .named(namespace)).currentPath

        // When: the library encodes the path
        let encoded = try encode(path)

        // Then: the documented additions carry what the record keeps beside the path or leaves out
        XCTAssertEqual(encoded["flags"] as? [String], record["flags"] as? [String])
        XCTAssertEqual((encoded["interface"] as? [String: Any])?["kind"] as? String, "veth")
        // and without them it is the record's path object, key for key
        assertSameObject(stripped(encoded), recordPath)
    }

    func testHostName_libraryJSON_carriesTheRecordsAddresses_insideThePath() throws {
        // Given: a name of /etc/hosts, checked by the command and by a monitor
        let (record, recordPath) = try checkRecord("localhost")
        let path = try PathMonitor(host: "localhost", namespace: .named(namespace)).currentPath

        let encoded = try encode(path)

        XCTAssertEqual(encoded["addresses"] as? [String], record["addresses"] as? [String])
        XCTAssertNotNil(record["addresses"], "a host name's record lists its addresses")
        XCTAssertNil(recordPath["addresses"], "a record's path leaves them to the record")
        assertSameObject(stripped(encoded), recordPath)
    }

    /// A record longer than the line the printer first makes room for (about 1 KiB) comes out
    /// whole: twenty more available interfaces, each an object in `availableInterfaces`.
    func testARecordOfManyInterfaces_isOneWholeLine() throws {
        try ipInNamespace("link", "set", "lo", "up")
        for number in 1...20 {
            try ipInNamespace("link", "add", "many\(number)", "type", "veth", "peer", "name", "many\(number)p")
            try ipInNamespace("addr", "add", "10.\(number).0.1/24", "dev", "many\(number)")
            try ipInNamespace("link", "set", "many\(number)p", "up")
            try ipInNamespace("link", "set", "many\(number)", "up")
        }
        // A veth's carrier comes a moment after both ends are up: checked until all twenty count.
        var output = ""
        try waitUntil("every veth is among the available interfaces") {
            let result = try check("--json", "10.1.0.9")
            XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
            output = result.stdout
            let path = try XCTUnwrap(try parseRecord(result.stdout)["path"] as? [String: Any])
            let names = (path["availableInterfaces"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
            return Set(names).isSuperset(of: (1...20).map { "many\($0)" })
        }
        XCTAssertGreaterThan(output.utf8.count, 1024, "a line longer than the first buffer")
        XCTAssertEqual(output.filter { $0 == "\n" }.count, 1, "one line")
    }

    // MARK: - Helpers

    /// `reachability check --json TARGET` in the test's namespace: the record and its `path` object.
    private func checkRecord(_ target: String) throws -> ([String: Any], [String: Any]) {
        let result = try check("--json", target)
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        let record = try parseRecord(result.stdout)
        return (record, try XCTUnwrap(record["path"] as? [String: Any], "a record has a path object"))
    }

    private func encode(_ path: NetworkPath) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(path))
        return try XCTUnwrap(object as? [String: Any])
    }

    /// The library's path without the documented additions, its interfaces' included.
    private func stripped(_ path: [String: Any]) -> [String: Any] {
        func strippedInterface(_ value: Any) -> Any {
            guard let interface = value as? [String: Any] else { return value }
            return interface.filter { !Self.interfaceExtras.contains($0.key) }
        }
        var result = path.filter { !Self.pathExtras.contains($0.key) }
        result["interface"] = path["interface"].map(strippedInterface)
        result["availableInterfaces"] = (path["availableInterfaces"] as? [Any])?.map(strippedInterface)
        return result
    }

    private func assertSameObject(_ library: [String: Any], _ record: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(library.keys.sorted(), record.keys.sorted(), "the same keys", file: file, line: line)
        XCTAssertEqual(NSDictionary(dictionary: library), NSDictionary(dictionary: record),
                       "library \(library)\nrecord  \(record)", file: file, line: line)
    }
}
