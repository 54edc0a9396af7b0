import Foundation
import XCTest

/// One version everywhere a user reads it: `reachability --version` (`CommandVersion`),
/// CHANGELOG.md's newest release, and the dependency lines of the README and its articles.
final class ReleaseVersionTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The first `"X.Y.Z"` after `marker` in `text`.
    private static func version(after marker: String, in text: String) -> String? {
        guard let start = text.range(of: marker)?.upperBound else { return nil }
        let rest = text[start...]
        guard let open = rest.firstIndex(where: \.isNumber) else { return nil }
        return String(rest[open...].prefix { $0.isNumber || $0 == "." })
    }

    func testCommandChangelogAndReadme_nameOneVersion() throws {
        let command = try XCTUnwrap(Self.version(after: "static let current = \"",
                                                 in: Self.text("Sources/reachability/CommandVersion.swift")))
        let changelog = try Self.text("CHANGELOG.md")
        XCTAssertEqual(Self.version(after: "\n## [", in: changelog.replacingOccurrences(of: "## [Unreleased]", with: "")),
                       command, "CHANGELOG.md's newest release is the command's version")
        let readme = try Self.text("README.md")
        XCTAssertTrue(readme.contains(#".package(url: "<this repository>", from: "\#(command)")"#),
                      "the README pins the release: from: \"\(command)\"")
        XCTAssertFalse(readme.contains("branch: \"main\""), "the README pins a release, not a branch")
    }
}
