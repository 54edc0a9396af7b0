import Dispatch
import Foundation
import XCTest

/// `reachability wait` with several targets: `--all` (the default) waits for every one, `--any`
/// for one. The namespace: 10.9.0.7 is on link (reachable), 2001:db8::1 has no route.
extension CommandWaitTests {
    func testWait_any_whenOneTargetIsReachable_exitsZeroAtOnce() throws {
        let result = try reachability(["wait", "--any", "--netns", namespace, "--timeout", "20", "2001:db8::1", "10.9.0.7"])
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        XCTAssertEqual(result.stderr, "")
    }

    func testWait_all_whenOneTargetStaysUnreachable_exitsOneNamingOnlyIt() throws {
        let result = try reachability(["wait", "--netns", namespace, "--timeout", "0.5", "10.9.0.7", "2001:db8::1", "2001:db8::2"])
        XCTAssertEqual(result.status, 1, "stderr: \(result.stderr)")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("2001:db8::1 not reachable (no route)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("2001:db8::2"), result.stderr)
        XCTAssertFalse(result.stderr.contains("10.9.0.7"), "a reachable target is not named: \(result.stderr)")
    }

    func testWait_all_whenTheLastTargetBecomesReachable_exitsZero() throws {
        // Given: 10.9.0.7 reachable, 8.8.8.8 not (no default route)
        try ipInNamespace("route", "del", "default")
        let wait = try startReachability(["wait", "--all", "--verbose", "--netns", namespace, "--timeout", "30", "10.9.0.7", "8.8.8.8"])
        defer { wait.terminateIfRunning() }
        try awaitEngineStarted(wait)
        XCTAssertNil(wait.waitForExit(before: .now()), "wait --all must not end while 8.8.8.8 is unreachable")

        // When: the default route comes back
        try ipInNamespace("route", "add", "default", "via", "10.9.0.2")

        // Then
        XCTAssertEqual(wait.waitForExit(before: .now() + Self.deadline), 0)
    }
}
