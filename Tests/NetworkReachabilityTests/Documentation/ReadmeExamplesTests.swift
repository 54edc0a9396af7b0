import Foundation
import XCTest

/// The README's examples that live in packages of their own are those packages' code, word for
/// word: the cross-platform service (`Examples/network-status`, built and run by
/// `scripts/test-consumer`) and the Hummingbird server with its test (`Examples/ready-service`,
/// built and tested by `scripts/test`). A marker line before a code block names its file:
///
/// - `<!-- file: PATH -->`: the block is the whole file.
/// - `<!-- lines of: PATH -->`: each line of the block (a manifest), but for comments, the
///   `.package(...)` lines (a package in this repository names it by path) and the package's own
///   `name:`, is a line of the file (whitespace aside).
final class ReadmeExamplesTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files the README shows; a marker dropped or added changes this list.
    private static let expected: Set = [
        "Examples/network-status/Package.swift",
        "Examples/network-status/Sources/network-status/NetworkWatcher.swift",
        "Examples/ready-service/Package.swift",
        "Examples/ready-service/Sources/PathServer/PathServer.swift",
        "Examples/ready-service/Sources/path-server/main.swift",
        "Examples/ready-service/Tests/PathServerTests/NetworkStatusTests.swift",
    ]

    func testEveryMarkedBlock_isItsFilesCode() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        var checked: Set<String> = []
        for block in Self.markedBlocks(in: readme) {
            let file = try String(contentsOf: Self.root.appendingPathComponent(block.path), encoding: .utf8)
            checked.insert(block.path)
            if block.whole {
                XCTAssertEqual(block.code, file.hasSuffix("\n") ? String(file.dropLast()) : file,
                               "README's block differs from \(block.path)")
            } else {
                let fileLines = Set(file.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
                for line in block.code.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) })
                where !line.isEmpty && !line.hasPrefix("//") && !line.contains(".package(") && !line.hasPrefix("name:") {
                    XCTAssertTrue(fileLines.contains(line), "README's line '\(line)' is not in \(block.path)")
                }
            }
        }
        XCTAssertEqual(checked, Self.expected)
    }

    /// Each marker's path, whether it names the whole file, and the code block after it.
    private static func markedBlocks(in readme: String) -> [(path: String, whole: Bool, code: String)] {
        let lines = readme.components(separatedBy: "\n")
        var blocks: [(path: String, whole: Bool, code: String)] = []
        for (index, line) in lines.enumerated() {
            let whole = line.hasPrefix("<!-- file: ")
            guard whole || line.hasPrefix("<!-- lines of: "), line.hasSuffix(" -->") else { continue }
            let path = line.dropFirst(whole ? 11 : 15).dropLast(4).trimmingCharacters(in: .whitespaces)
            guard let open = lines[(index + 1)...].firstIndex(where: { $0.hasPrefix("```") }),
                  let close = lines[(open + 1)...].firstIndex(where: { $0 == "```" }) else { continue }
            blocks.append((path, whole, lines[(open + 1)..<close].joined(separator: "\n")))
        }
        return blocks
    }
}
