import Foundation
import XCTest

/// The command's messages for wrong input, word for word: each names what is wrong and the fix,
/// in our words rather than the argument parser's; `*`, which records print for the general
/// path, is accepted as a target; `--version` prints the release.
final class CommandMessagesTests: CommandTestCase {
    override class var makesNamespace: Bool { false }

    func testWrongInput_oneExactLine_andItsStatus() throws {
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            (["check", "--probe", "https:/probe.test/"], 2,
             "invalid probe 'https:/probe.test/': 'https:' must be followed by two slashes: write 'https://probe.test/'"),
            (["check", "--probe", "probe.test:8443"], 2,
             "invalid probe 'probe.test:8443': it has no scheme: write 'https://probe.test:8443' "
                + "(or http:// for plain HTTP, or tcp://probe.test:8443 to only connect)"),
            (["check", "--probe", "probe.test/generate_204"], 2,
             "invalid probe 'probe.test/generate_204': it has no scheme: write 'https://probe.test/generate_204' (or http:// for plain HTTP)"),
            (["check", "--probe", "http://probe.test/", "--probe-timeout", "10", "--probe-interval", "5"], 2,
             "--probe-timeout 10 is longer than --probe-interval 5: give a --probe-timeout at most the --probe-interval"),
            (["wait", "--any", "--all", "8.8.8.8"], 64,
             "--any and --all exclude each other: give --all (every target, the default) or --any (the first one) (see 'reachability help')"),
            (["watch", "--timeout", "-1"], 64,
             "--timeout takes a number of seconds greater than 0, not '-1' (leave it out to watch until interrupted) (see 'reachability help')"),
            (["wait", "--timeout", "-1"], 64,
             "--timeout takes a number of seconds greater than 0, or 0 or 'forever' to wait for ever, not '-1' (see 'reachability help')"),
            (["wait", "--timeout", "soon"], 64,
             "--timeout takes a number of seconds greater than 0, or 0 or 'forever' to wait for ever, not 'soon' (see 'reachability help')"),
            (["watch", "--count", "-1"], 64, "--count must be at least 1 (see 'reachability help')"),
            (["wait", "--interface", "a/b"], 64,
             "--interface takes an interface name of 1 to 15 characters without '/', ':' or spaces, not 'a/b' (see 'reachability help')"),
        ]
        for (arguments, status, message) in cases {
            let result = try reachability(arguments)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr, "reachability: \(message)\n", "\(arguments)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
    }

    func testVersion_printsTheRelease() throws {
        let result = try reachability(["--version"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "0.1.0\n")
    }
}
