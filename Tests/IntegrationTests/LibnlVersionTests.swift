import Foundation
import XCTest

/// `scripts/test-libnl VERSION` builds the package against a libnl of its own; this checks that
/// the test process really runs with it (`NRX_EXPECTED_LIBNL`, its `lib` directory).
final class LibnlVersionTests: XCTestCase {
    func testLoadedLibnl_isTheOneAskedFor() throws {
        guard let expected = ProcessInfo.processInfo.environment["NRX_EXPECTED_LIBNL"] else {
            throw XCTSkip("only under scripts/test-libnl (NRX_EXPECTED_LIBNL names the libnl to expect)")
        }
        // Read to the end: procfs reports a size of 0, which some whole-file readers trust.
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let loaded = Set(maps.split(separator: "\n").compactMap { line -> String? in
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last,
                  path.contains("/libnl-") else { return nil }
            return String(path)
        })
        XCTAssertFalse(loaded.isEmpty, "no libnl mapped")
        for path in loaded {
            XCTAssert(path.hasPrefix(expected + "/"), "\(path) is not from \(expected)")
        }
    }
}
