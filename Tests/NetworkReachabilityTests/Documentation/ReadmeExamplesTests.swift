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
/// - `<!-- in: PATH -->`: the block is an excerpt of the file's code (a program of `Examples/`, a
///   test, or `ReadmeSnippets.swift`, which holds the smaller blocks, compiled): its lines appear
///   in the file one after the other, indentation, blank lines and `//` comment lines aside; a
///   line `// ...` skips any number of the file's lines, and an `import` line may be anywhere.
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
        "Tests/NetworkReachabilityTests/Documentation/ReadmeSnippets.swift",
        "Tests/ServiceTests/ReadmeFakeExampleTests.swift",
        "Examples/sc-monitor/ReachabilityMonitor.swift",
        "Examples/af-manager/main.swift",
        "Examples/nw-monitor/main.swift",
    ]

    func testEveryMarkedBlock_isItsFilesCode() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        var checked: Set<String> = []
        for block in Self.markedBlocks(in: readme) {
            let file = try String(contentsOf: Self.root.appendingPathComponent(block.path), encoding: .utf8)
            checked.insert(block.path)
            if block.mode == .excerpt {
                if let missing = Self.firstUnmatchedLine(of: block.code, in: file) {
                    XCTFail("README's block for \(block.path) is not its code from the line '\(missing)' on")
                }
            } else if block.mode == .whole {
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

    private enum Mode: String, CaseIterable {
        case whole = "file", lines = "lines of", excerpt = "in"
    }

    /// Each marker's path, its mode, and the code block after it.
    private static func markedBlocks(in readme: String) -> [(path: String, mode: Mode, code: String)] {
        let lines = readme.components(separatedBy: "\n")
        var blocks: [(path: String, mode: Mode, code: String)] = []
        for (index, line) in lines.enumerated() {
            guard let mode = Mode.allCases.first(where: { line.hasPrefix("<!-- \($0.rawValue): ") }),
                  line.hasSuffix(" -->") else { continue }
            let path = line.dropFirst("<!-- \(mode.rawValue): ".count).dropLast(4).trimmingCharacters(in: .whitespaces)
            guard let open = lines[(index + 1)...].firstIndex(where: { $0.hasPrefix("```") }),
                  let close = lines[(open + 1)...].firstIndex(where: { $0 == "```" }) else { continue }
            blocks.append((path, mode, lines[(open + 1)..<close].joined(separator: "\n")))
        }
        return blocks
    }

    /// The first line of `excerpt` that `file` does not continue with; nil when it is all there.
    private static func firstUnmatchedLine(of excerpt: String, in file: String) -> String? {
        func code(_ text: String) -> [String] {
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && ($0 == "// ..." || !$0.hasPrefix("//") || $0.hasPrefix("///")) }
        }
        let fileLines = code(file)
        let fileImports = Set(fileLines.filter { $0.hasPrefix("import ") })
        // Runs of lines that must follow one another; a gap or an import ends a run.
        var runs: [[String]] = [[]]
        for line in code(excerpt) {
            if line == "// ..." || line.hasPrefix("import ") {
                if line.hasPrefix("import "), !fileImports.contains(line) { return line }
                runs.append([])
            } else {
                runs[runs.count - 1].append(line)
            }
        }
        var start = 0
        for run in runs where !run.isEmpty {
            guard let found = (start...max(start, fileLines.count - run.count)).first(where: { index in
                index + run.count <= fileLines.count && Array(fileLines[index..<(index + run.count)]) == run
            }) else { return run[0] }
            start = found + run.count
        }
        return nil
    }
}
