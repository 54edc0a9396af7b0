import Foundation
import XCTest

/// `check`, `watch` and bad input.
final class CommandTests: CommandTestCase {
    // MARK: - check

    func testCheckJSONOfAReachableAddress() throws {
        let result = try check("--json", "8.8.8.8")
        XCTAssertEqual(result.status, 0, "reachable exits 0; stderr: \(result.stderr)")
        XCTAssertEqual(result.stderr, "")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 2, "one record and its newline: \(result.stdout)")
        let line = String(lines[0])
        let record = try parseRecord(line)

        assertKeyOrder(line, ["time", "target", "flags", "flagsRaw", "status", "path"])
        assertKeyOrder(line, ["status", "unsatisfiedReason", "interface", "gateways", "availableInterfaces",
                              "isExpensive", "isConstrained", "supportsIPv4", "supportsIPv6", "supportsDNS"])
        XCTAssertEqual(Set(record.keys), ["time", "target", "flags", "flagsRaw", "status", "path"],
                       "no 'addresses' for an address target")
        let time = try XCTUnwrap(record["time"] as? String)
        XCTAssertNotNil(time.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$"#, options: .regularExpression),
                        "RFC 3339 UTC with microseconds: \(time)")
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let printedAt = try XCTUnwrap(parser.date(from: time), "a date ISO 8601 reads: \(time)")
        XCTAssertLessThan(abs(printedAt.timeIntervalSinceNow), 120, "the record's time is the clock's: \(time)")
        XCTAssertEqual(record["target"] as? String, "8.8.8.8")
        XCTAssertEqual(record["flags"] as? [String], ["reachable"])
        XCTAssertEqual(record["flagsRaw"] as? Int, 2)
        XCTAssertEqual(record["status"] as? String, "reachableViaWiFi")

        let path = try XCTUnwrap(record["path"] as? [String: Any])
        XCTAssertEqual(path["status"] as? String, "satisfied")
        XCTAssertTrue(path["unsatisfiedReason"] is NSNull)
        let interface = try XCTUnwrap(path["interface"] as? [String: Any])
        XCTAssertEqual(interface["name"] as? String, "v0")
        XCTAssertEqual(interface["type"] as? String, "wiredEthernet")
        XCTAssertNotNil(interface["index"] as? Int)
        XCTAssertEqual(path["gateways"] as? [String], ["10.9.0.2"])
        let available = try XCTUnwrap(path["availableInterfaces"] as? [[String: Any]])
        XCTAssertEqual(available.first?["name"] as? String, "v0", "the route's interface comes first")
        XCTAssertEqual(path["isExpensive"] as? Bool, false)
        XCTAssertEqual(path["isConstrained"] as? Bool, false)
        XCTAssertEqual(path["supportsIPv4"] as? Bool, true)
        XCTAssertEqual(path["supportsIPv6"] as? Bool, false)
        XCTAssertNotNil(path["supportsDNS"] as? Bool)
    }

    func testCheckJSONOfAnUnreachableAddressExitsOne() throws {
        let result = try check("--json", "2001:db8::1")
        XCTAssertEqual(result.status, 1, "not reachable exits 1; stderr: \(result.stderr)")
        XCTAssertEqual(result.stderr, "")
        let record = try parseRecord(result.stdout)
        XCTAssertEqual(record["target"] as? String, "2001:db8::1")
        XCTAssertEqual(record["flags"] as? [String], [])
        XCTAssertEqual(record["flagsRaw"] as? Int, 0)
        XCTAssertEqual(record["status"] as? String, "notReachable")
        let path = try XCTUnwrap(record["path"] as? [String: Any])
        XCTAssertEqual(path["status"] as? String, "unsatisfied")
        XCTAssertEqual(path["unsatisfiedReason"] as? String, "noRoute")
        XCTAssertTrue(path["interface"] is NSNull, "no interface: null, not absent")
        XCTAssertEqual(path["gateways"] as? [String], [])
    }

    func testCheckOfTheGeneralPathPrintsAStar() throws {
        let result = try check("--json")
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        let record = try parseRecord(result.stdout)
        XCTAssertEqual(record["target"] as? String, "*")
        XCTAssertEqual(record["status"] as? String, "reachableViaWiFi")
    }

    func testCheckHumanOutputIsOneLine() throws {
        let result = try check("8.8.8.8")
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        XCTAssertFalse(result.stdout.contains("\u{1B}"), "no colour when stdout is a pipe")
        let fields = result.stdout.split(whereSeparator: \.isWhitespace)
        XCTAssertEqual(fields.count, 8, "time, target, state, flags (two words), interface, its kind, gateway: \(result.stdout)")
        XCTAssertEqual(fields.dropFirst().map(String.init), ["8.8.8.8", "reachable", "-R", "-------", "v0", "wiredEthernet", "10.9.0.2"])
    }

    // MARK: - bad input

    func testBadInputGetsOneLineOnStderrAndAnotherStatus() throws {
        let cases: [(arguments: [String], mentions: String)] = [
            (["check", "--netns", namespace, "10.0.0.300"], "10.0.0.300"),
            (["check", "--json", "--netns", namespace, "not an address"], "not an address"),
            (["check", "--netns", "nrx-cmd-missing-\(getpid())", "8.8.8.8"], "nrx-cmd-missing-\(getpid())"),
            (["check", "--no-such-option", "8.8.8.8"], "--no-such-option"),
            (["watch", "--netns", namespace, "8.8.8.8", "fe80::1%"], "fe80::1%"),
            (["wait", "--netns", namespace, "10.0.0.300"], "10.0.0.300"),
            (["wait", "--timeout", "-1", "--netns", namespace, "8.8.8.8"], "--timeout"),
            (["wait", "--netns", namespace, "8.8.8.8", "10.0.0.300"], "10.0.0.300"),
            (["wait", "--any", "--all", "--netns", namespace, "8.8.8.8"], "--all"),
            (["interfaces", "--netns", "nrx-cmd-missing-\(getpid())"], "nrx-cmd-missing-\(getpid())"),
            (["interfaces", "--netns", namespace, "extra"], "extra"),
            (["demo", "--duration", "0"], "--duration"),
            (["demo", "--netns", namespace], "--netns"),
        ]
        for (arguments, mentions) in cases {
            let result = try reachability(arguments)
            XCTAssertFalse([0, 1].contains(result.status), "\(arguments) exited \(result.status)")
            XCTAssertEqual(result.stdout, "", "\(arguments) printed no record")
            XCTAssertTrue(result.stderr.hasSuffix("\n"), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(arguments): one line: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(mentions), "\(arguments) names the problem: \(result.stderr)")
        }
    }

    // MARK: - watch

    func testWatchPrintsTheInitialStateThenAChange() throws {
        let watch = try startWatch("--json", "--count", "2", "8.8.8.8")
        defer { watch.terminateIfRunning() }

        let first = try XCTUnwrap(watch.stdout.nextLine(before: .now() + Self.deadline), "the initial record")
        let initial = try parseRecord(first)
        XCTAssertEqual(initial["target"] as? String, "8.8.8.8")
        XCTAssertEqual(initial["status"] as? String, "reachableViaWiFi")

        try ipInNamespace("link", "set", "v1", "down")  // v0 loses its carrier

        let second = try XCTUnwrap(watch.stdout.nextLine(before: .now() + Self.deadline), "a record after the change")
        let changed = try parseRecord(second)
        XCTAssertEqual(changed["target"] as? String, "8.8.8.8")
        XCTAssertEqual(changed["status"] as? String, "notReachable", "first: \(first)\nsecond: \(second)")
        XCTAssertEqual(changed["flags"] as? [String], ["reachable", "connectionRequired"], second)
        let path = try XCTUnwrap(changed["path"] as? [String: Any])
        XCTAssertEqual(path["status"] as? String, "unsatisfied", second)
        XCTAssertEqual(path["unsatisfiedReason"] as? String, "noCarrier", second)

        let status = try XCTUnwrap(watch.waitForExit(before: .now() + Self.deadline), "--count 2 ends the watch")
        XCTAssertEqual(status, 0)
        XCTAssertNil(watch.stdout.nextLine(before: .now() + Self.deadline), "nothing after the second record")
    }

    func testWatchStopsOnSIGTERMAndTimeoutWithStatusZero() throws {
        let watch = try startWatch("--json")
        defer { watch.terminateIfRunning() }
        let first = try XCTUnwrap(watch.stdout.nextLine(before: .now() + Self.deadline), "the initial record")
        XCTAssertEqual(try parseRecord(first)["target"] as? String, "*")
        watch.process.terminate()  // SIGTERM
        XCTAssertEqual(watch.waitForExit(before: .now() + Self.deadline), 0)

        let timed = try startWatch("--timeout", "0.5", "8.8.8.8", "::")
        defer { timed.terminateIfRunning() }
        XCTAssertEqual(timed.waitForExit(before: .now() + Self.deadline), 0, "--timeout ends the watch")
        var lines: [String] = []
        while let line = timed.stdout.nextLine(before: .now() + Self.deadline) { lines.append(line) }
        XCTAssertEqual(lines.count, 2, "one initial record per target: \(lines)")
    }
}
