import Foundation
import XCTest

/// The code of the README and of the DocC articles is the repository's code, word for word: the
/// cross-platform service (`Examples/network-status`, built and run by `scripts/test-consumer`),
/// the Hummingbird server with its test and its Dockerfile (`Examples/ready-service`, built and
/// tested by `scripts/test`), the ported programs of `Examples/`, and the small blocks, compiled
/// in `ReadmeSnippets.swift` and `ArticleSnippets.swift`. Every Swift block of those documents
/// has a marker line before it that names its file:
///
/// - `<!-- file: PATH -->`: the block is the whole file.
/// - `<!-- lines of: PATH -->`: each line of the block (a manifest), but for comments, the
///   `.package(...)` lines (a package in this repository names it by path) and the package's own
///   `name:`, is a line of the file (whitespace aside).
/// - `<!-- in: PATH -->`: the block is an excerpt of the file's code (a program of `Examples/`, a
///   test, or a snippets file): its lines appear in the file one after the other, indentation,
///   blank lines and `//` comment lines aside; a line `// ...` skips any number of the file's
///   lines, and an `import` line may be anywhere.
final class ReadmeExamplesTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The DocC catalog, whose articles are checked as the README is.
    private static let catalog = "Sources/NetworkReachability/NetworkReachability.docc"

    /// The files the documents show; a marker dropped or added changes this list.
    private static let expected: Set = [
        "Examples/network-status/Package.swift",
        "Examples/network-status/Sources/network-status/NetworkWatcher.swift",
        "Examples/ready-service/Package.swift",
        "Examples/ready-service/Sources/PathServer/PathServer.swift",
        "Examples/ready-service/Sources/path-server/main.swift",
        "Examples/ready-service/Tests/PathServerTests/NetworkStatusTests.swift",
        "Examples/ready-service/Dockerfile",
        "Tests/NetworkReachabilityTests/Documentation/ReadmeSnippets.swift",
        "Tests/NetworkReachabilityTests/Documentation/ArticleSnippets.swift",
        "Tests/ServiceTests/ReadmeFakeExampleTests.swift",
        "Tests/ServiceTests/AppleStyleFakeExampleTests.swift",
        "Examples/sc-monitor/ReachabilityMonitor.swift",
        "Examples/af-manager/main.swift",
        "Examples/nw-monitor/main.swift",
        "Examples/nw-shared/Package.swift",
        "Examples/nw-shared/Sources/nw-shared/main.swift",
    ]

    /// README.md and every article of the catalog, by path.
    private static func documents() throws -> [String] {
        let articles = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(catalog).path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        return ["README.md"] + articles
    }

    private static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func testEveryMarkedBlock_isItsFilesCode() throws {
        var checked: Set<String> = []
        for document in try Self.documents() {
            for block in Self.markedBlocks(in: try Self.text(document)) {
                let file = try Self.text(block.path)
                checked.insert(block.path)
                Self.check(block, of: document, against: file)
            }
        }
        XCTAssertEqual(checked, Self.expected)
    }

    func testEverySwiftBlock_hasAMarker() throws {
        for document in try Self.documents() {
            let lines = try Self.text(document).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.hasPrefix("```swift") {
                let before = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
                XCTAssertTrue(Mode.allCases.contains { before.hasPrefix("<!-- \($0.rawValue): ") },
                              "\(document):\(index + 1): a Swift block without a marker naming its file")
            }
        }
    }

    func testReadmesLinks_intoTheCatalog_exist() throws {
        let readme = try Self.text("README.md")
        for line in readme.split(separator: "\n") where line.hasPrefix("[") && line.contains("]: ") {
            let target = String(line[line.range(of: "]: ")!.upperBound...])
            guard !target.hasPrefix("http") else { continue }
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(target).path),
                          "README links to \(target), which does not exist")
        }
        XCTAssertLessThanOrEqual(readme.split(separator: "\n", omittingEmptySubsequences: false).count, 300,
                                 "the README is a front page of at most 300 lines; the rest goes into the catalog")
    }

    private static func check(_ block: (path: String, mode: Mode, code: String), of document: String, against file: String) {
        switch block.mode {
        case .excerpt:
            if let missing = firstUnmatchedLine(of: block.code, in: file) {
                XCTFail("\(document)'s block for \(block.path) is not its code from the line '\(missing)' on")
            }
        case .whole:
            XCTAssertEqual(block.code, file.hasSuffix("\n") ? String(file.dropLast()) : file,
                           "\(document)'s block differs from \(block.path)")
        case .lines:
            let fileLines = Set(file.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
            for line in block.code.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) })
            where !line.isEmpty && !line.hasPrefix("//") && !line.contains(".package(") && !line.hasPrefix("name:") {
                XCTAssertTrue(fileLines.contains(line), "\(document)'s line '\(line)' is not in \(block.path)")
            }
        }
    }

    private enum Mode: String, CaseIterable {
        case whole = "file", lines = "lines of", excerpt = "in"
    }

    /// Each marker's path, its mode, and the code block after it.
    private static func markedBlocks(in document: String) -> [(path: String, mode: Mode, code: String)] {
        let lines = document.components(separatedBy: "\n")
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
