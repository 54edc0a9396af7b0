import Foundation
import XCTest

/// `check`, `watch` and `wait` read their plain forms without swift-argument-parser, and every other form
/// with it: both readings give the same records, messages and statuses. `--name=value` is one
/// form only swift-argument-parser reads, so each pair below differs in that alone.
final class CommandQuickArgumentsTests: CommandTestCase {
    /// A record's line without its time, which differs from one run to the next.
    private func withoutTime(_ output: String) -> String {
        output.replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"#, with: "TIME", options: .regularExpression)
    }

    private func assertSameRun(_ quick: [String], _ parsed: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let quickRun = try reachability(quick)
        let parsedRun = try reachability(parsed)
        XCTAssertEqual(quickRun.status, parsedRun.status, "\(quick) against \(parsed)", file: file, line: line)
        XCTAssertEqual(withoutTime(quickRun.stdout), withoutTime(parsedRun.stdout), file: file, line: line)
        XCTAssertEqual(withoutTeardown(quickRun.stderr), withoutTeardown(parsedRun.stderr), file: file, line: line)
    }

    /// `-v`'s log without the engine's "engine stopped" line: `check` exits as soon as its answer is
    /// out, and whether the engine's thread logged its end before the process did is a race.
    private func withoutTeardown(_ stderr: String) -> String {
        stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasSuffix("] engine stopped") }.joined(separator: "\n")
    }

    func testCheck_plainFormAndParsedForm_giveTheSameAnswer() throws {
        try assertSameRun(["check", "--netns", namespace, "--json", "10.9.0.7"], ["check", "--netns=\(namespace)", "--json", "10.9.0.7"])
        try assertSameRun(["check", "2001:db8::1", "--netns", namespace], ["check", "2001:db8::1", "--netns=\(namespace)"])
        try assertSameRun(["check", "--netns", namespace, "--local", "10.9.0.1", "-v", "10.9.0.2"],
                          ["check", "--netns=\(namespace)", "--local=10.9.0.1", "-v", "10.9.0.2"])
        try assertSameRun(["check", "--netns", namespace, "*"], ["check", "--netns=\(namespace)", "*"])
    }

    func testCheck_badInput_givesTheParsersMessages() throws {
        // Rejected by the library (2) and by the parser (64): the plain form's reading hands each to the same code.
        try assertSameRun(["check", "--netns", namespace, "not a host!"], ["check", "--netns=\(namespace)", "not a host!"])
        try assertSameRun(["check", "--netns", "nrx-no-such-namespace", "10.9.0.2"], ["check", "--netns=nrx-no-such-namespace", "10.9.0.2"])
        let two = try reachability(["check", "--netns", namespace, "10.9.0.2", "10.9.0.3"])
        XCTAssertEqual(two.status, 64, two.stderr)
        XCTAssertEqual(two.stderr, "reachability: Unexpected argument '10.9.0.3' (see 'reachability help')\n")
        let empty = try reachability(["check", "--netns", ""])
        XCTAssertEqual(empty.status, 64, empty.stderr)
        XCTAssertTrue(empty.stderr.contains("--netns needs a namespace name"), empty.stderr)
    }

    func testWatch_plainFormAndParsedForm_giveTheSameRecords() throws {
        try assertSameRun(["watch", "--netns", namespace, "--json", "--count", "2", "10.9.0.2", "2001:db8::1"],
                          ["watch", "--netns=\(namespace)", "--json", "--count=2", "10.9.0.2", "2001:db8::1"])
        try assertSameRun(["watch", "--netns", namespace, "--timeout", "0.2"], ["watch", "--netns=\(namespace)", "--timeout=0.2"])
        for (option, value) in [("--count", "0"), ("--count", "x"), ("--timeout", "0"), ("--timeout", "soon")] {
            try assertSameRun(["watch", "--netns", namespace, option, value], ["watch", "--netns=\(namespace)", "\(option)=\(value)"])
        }
    }

    func testWait_plainFormAndParsedForm_giveTheSameOutcome() throws {
        try assertSameRun(["wait", "--netns", namespace, "--timeout", "5", "10.9.0.2", "--any", "2001:db8::1"],
                          ["wait", "--netns=\(namespace)", "--timeout=5", "10.9.0.2", "--any", "2001:db8::1"])
        // Timed out: status 1 and the line that names the goal that kept it waiting.
        try assertSameRun(["wait", "--netns", namespace, "--timeout", "0.3", "-6", "10.9.0.2"],
                          ["wait", "--netns=\(namespace)", "--timeout=0.3", "-6", "10.9.0.2"])
        try assertSameRun(["wait", "--netns", namespace, "--any", "--all"], ["wait", "--netns=\(namespace)", "--any", "--all"])
        try assertSameRun(["wait", "--netns", namespace, "--timeout", "soon"], ["wait", "--netns=\(namespace)", "--timeout=soon"])
    }
}
