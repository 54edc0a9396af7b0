import Foundation
import NetworkReachability
import XCTest

/// A `reachability --json` record decodes with the library's Codable values, and what they
/// decode equals what a monitor says: one shape for scripts and services.
extension CommandTests {
    /// The record's keys a service reads; `time` and `target` are the command's own.
    private struct DecodedRecord: Decodable {
        var flags: ReachabilityFlags
        var flagsRaw: ReachabilityFlags
        var status: ReachabilityStatus
        var path: NetworkPath
    }

    func testCheckJSONRecord_decodesIntoTheLibrarysValues() throws {
        // Given: a record of the command
        let result = try check("--json", "8.8.8.8")
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")

        // When: decoded with the library's Codable values
        let record = try JSONDecoder().decode(DecodedRecord.self, from: Data(result.stdout.utf8))

        // Then: they match a monitor's path of the same target, field by field
        var path = try PathMonitor(address: "8.8.8.8", namespace: .named(namespace)).currentPath
        XCTAssertEqual(record.flags, path.flags)
        XCTAssertEqual(record.flagsRaw, path.flags)
        XCTAssertEqual(record.status, path.reachabilityStatus)
        // A record's interfaces have no kind (the command's output is unchanged by it).
        path.interface?.kind = nil
        for index in path.availableInterfaces.indices { path.availableInterfaces[index].kind = nil }
        // A record's path object leaves its flags to the record: put them back, compare the encodings.
        var decodedPath = record.path
        decodedPath.flags = record.flags
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        XCTAssertEqual(String(decoding: try encoder.encode(decodedPath), as: UTF8.self),
                       String(decoding: try encoder.encode(path), as: UTF8.self))
    }
}
