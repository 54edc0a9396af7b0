import Dispatch
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `reachability demo`: it makes `nrx-demo-PID`, prints records as its network changes, and
/// removes the namespace when `--duration` passes, on SIGINT and on SIGTERM.
///
/// Each test also deletes the demo's namespace itself if the demo left it, so that a failing
/// test leaves nothing behind.
final class CommandDemoTests: CommandTestCase {
    override class var makesNamespace: Bool { false }

    /// The targets the demo watches, as its records print them.
    private static let targets: Set<String> = ["*", "10.77.0.1", "192.0.2.10"]

    func testDemo_withDuration_printsRecordsAndRemovesItsNamespace() throws {
        let demo = try startReachability(["demo", "--duration", "4"])
        let name = "nrx-demo-\(demo.process.processIdentifier)"
        defer { removeIfLeft(name, by: demo) }

        let status = try XCTUnwrap(demo.waitForExit(before: .now() + Self.deadline), "--duration 4 ends the demo")
        XCTAssertEqual(status, 0, "stderr: \(demo.stderr.remainder(before: .now() + Self.deadline))")
        let lines = demo.stdout.remainder(before: .now() + Self.deadline).split(separator: "\n").map(String.init)

        let records = lines.compactMap(Self.record(in:))
        XCTAssertEqual(Set(records.prefix(3).map(\.target)), Self.targets, "one initial record per target: \(lines)")
        XCTAssertTrue(records.contains { $0.target == "192.0.2.10" && $0.status == "unreachable" },
                      "a change made 192.0.2.10 unreachable: \(lines)")
        XCTAssertTrue(lines.contains { $0.contains("# ip link set v0p down") }, "the first change is narrated: \(lines)")
        XCTAssertTrue(lines.last?.hasSuffix("# removed the namespace \(name)") == true, "\(lines)")
        XCTAssertFalse(try Self.listedNamespaces().contains(name), "\(name) is gone")
    }

    func testDemo_onSIGINT_removesItsNamespaceAndExitsZero() throws {
        try assertDemoStops(on: SIGINT) { $0.interrupt() }
    }

    func testDemo_onSIGTERM_removesItsNamespaceAndExitsZero() throws {
        try assertDemoStops(on: SIGTERM) { $0.terminate() }
    }

    func testDemo_withoutTheRightToMakeANamespace_saysWhatToRunInstead() throws {
        guard let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("setpriv (util-linux) is needed to run the demo as nobody")
        }
        let result = try Self.run(setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", try Self.binaryPath(), "demo"])
        XCTAssertEqual(result.status, 2, "stdout: \(result.stdout) stderr: \(result.stderr)")
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("namespace"), result.stderr)
        XCTAssertTrue(result.stderr.contains("reachability watch"), "says what to run instead: \(result.stderr)")
    }

    // MARK: - Helpers

    /// Starts a demo, waits for its first record (so the namespace exists and it is watching),
    /// sends it a signal, and checks that it exits 0 having removed its namespace.
    private func assertDemoStops(on signal: Int32, file: StaticString = #filePath, line: UInt = #line,
                                 _ send: (Process) -> Void) throws {
        let demo = try startReachability(["demo"])
        let name = "nrx-demo-\(demo.process.processIdentifier)"
        defer { removeIfLeft(name, by: demo) }

        var lines: [String] = []
        while let next = demo.stdout.nextLine(before: .now() + Self.deadline) {
            lines.append(next)
            if Self.record(in: next) != nil { break }
        }
        XCTAssertNotNil(lines.last.flatMap(Self.record(in:)), "a record, while the demo runs: \(lines)", file: file, line: line)
        XCTAssertTrue(try Self.listedNamespaces().contains(name), "the demo made \(name)", file: file, line: line)

        send(demo.process)
        let status = try XCTUnwrap(demo.waitForExit(before: .now() + Self.deadline), "signal \(signal) ends the demo",
                                   file: file, line: line)
        XCTAssertEqual(status, 0, "signal \(signal)", file: file, line: line)
        XCTAssertEqual(demo.process.terminationReason, .exit, "it exits, rather than dying of signal \(signal)", file: file, line: line)
        let rest = demo.stdout.remainder(before: .now() + Self.deadline)
        XCTAssertTrue(rest.hasSuffix("# removed the namespace \(name)\n"), rest, file: file, line: line)
        XCTAssertFalse(try Self.listedNamespaces().contains(name), "\(name) is gone after signal \(signal)", file: file, line: line)
    }

    /// Stops the demo if it still runs and deletes its namespace if it left one: cleanup on every path.
    private func removeIfLeft(_ name: String, by demo: Running) {
        if demo.process.isRunning {
            kill(demo.process.processIdentifier, SIGKILL)
            _ = demo.waitForExit(before: .now() + Self.deadline)
        }
        if (try? Self.listedNamespaces().contains(name)) == true {
            _ = try? Self.run(Self.ipPath, ["netns", "del", name])
        }
    }

    /// The target and status of a record line, or nil for a `#` line.
    private static func record(in line: String) -> (target: String, status: String)? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 3, fields[1] != "#" else { return nil }
        return (String(fields[1]), String(fields[2]))
    }
}
