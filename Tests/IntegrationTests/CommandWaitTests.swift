import Dispatch
import Foundation
import XCTest

/// `reachability wait`: 0 as soon as the target is reachable, on the event that makes it so;
/// 1 when `--timeout` passes first.
final class CommandWaitTests: CommandTestCase {
    func testWait_whenAlreadyReachable_exitsZeroAtOnceAndPrintsNothing() throws {
        let result = try reachability(["wait", "--netns", namespace, "--timeout", "20", "8.8.8.8"])
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "")
    }

    func testWait_whenTheDefaultRouteComes_exitsZero() throws {
        // Given: no default route, so 8.8.8.8 is not reachable.
        try ipInNamespace("route", "del", "default")
        let unreachable = try check("8.8.8.8")
        XCTAssertEqual(unreachable.status, 1, "precondition: 8.8.8.8 is not reachable: \(unreachable.stdout)")

        // When: wait runs (its engine listens once it logs "engine started"), then the route comes back.
        let wait = try startReachability(["wait", "--verbose", "--netns", namespace, "--timeout", "30", "8.8.8.8"])
        defer { wait.terminateIfRunning() }
        try awaitEngineStarted(wait)
        XCTAssertNil(wait.waitForExit(before: .now()), "wait must not end before the target is reachable")
        try ipInNamespace("route", "add", "default", "via", "10.9.0.2")

        // Then: it ends with 0 on that event, having printed nothing on stdout.
        let status = try XCTUnwrap(wait.waitForExit(before: .now() + Self.deadline), "wait ends once the route is back")
        XCTAssertEqual(status, 0)
        XCTAssertEqual(wait.stdout.remainder(before: .now() + Self.deadline), "")
    }

    func testWait_whenTheCarrierComesBack_exitsZero() throws {
        // Given: an on-link address whose link has no carrier (the kernel's operstate included).
        try ipInNamespace("link", "set", "v1", "down")
        try Namespace(name: namespace).waitForLink("v0", carrier: false)
        let wait = try startReachability(["wait", "--verbose", "--netns", namespace, "10.9.0.7"])
        defer { wait.terminateIfRunning() }
        try awaitEngineStarted(wait)
        XCTAssertNil(wait.waitForExit(before: .now()), "wait must not end while there is no carrier")

        // When: the carrier returns.
        try ipInNamespace("link", "set", "v1", "up")

        // Then: wait, which has no timeout, ends with 0.
        XCTAssertEqual(wait.waitForExit(before: .now() + Self.deadline), 0)
    }

    func testWait_whenTheTimeoutPassesFirst_exitsOneWithOneLine() throws {
        let result = try reachability(["wait", "--netns", namespace, "--timeout", "0.5", "2001:db8::1"])
        XCTAssertEqual(result.status, 1, "stderr: \(result.stderr)")
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("2001:db8::1"), result.stderr)
        XCTAssertTrue(result.stderr.contains("0.5 s"), result.stderr)
        XCTAssertEqual(result.stderr, "reachability: timed out after 0.5 s: 2001:db8::1 not reachable (no route)\n", "says why")
    }

    func testWait_ofTheGeneralPath_exitsZero() throws {
        let result = try reachability(["wait", "--netns", namespace, "--timeout", "20"])
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
    }

    // MARK: - Helpers

    /// Reads the `--verbose` log on stderr until the engine of the wait's namespace has started:
    /// from then on it receives every change.
    func awaitEngineStarted(_ running: Running, file: StaticString = #filePath, line: UInt = #line) throws {
        var seen: [String] = []
        while let logLine = running.stderr.nextLine(before: .now() + Self.deadline) {
            if logLine.contains("engine started") { return }
            seen.append(logLine)
        }
        XCTFail("no 'engine started' in the --verbose log: \(seen)", file: file, line: line)
        throw Failure("the wait's engine did not start")
    }
}
