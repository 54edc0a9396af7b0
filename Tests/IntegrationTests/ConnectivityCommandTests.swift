import Dispatch
import Foundation
import XCTest

/// `reachability check|watch|wait --probe` against the probe lab's real server (connectivity.md, "The command").
final class ConnectivityCommandTests: CommandTestCase {
    override class var makesNamespace: Bool { false }

    private func probeArguments(_ url: String = ProbeLab.url) -> [String] {
        ["--probe", url, "--probe-timeout", "1.5", "--probe-interval", "2"]
    }

    private func path(of line: String) throws -> [String: Any] {
        try XCTUnwrap(try parseRecord(line)["path"] as? [String: Any])
    }

    func testCheck_full_portal_limited_exitStatusesAndKeys() throws {
        try withProbeLab { lab in
            let netns = ["--netns", lab.client.name, "--json"]
            let full = try reachability(["check"] + netns + probeArguments())
            XCTAssertEqual(full.status, 0, full.stderr)
            XCTAssertEqual(try path(of: full.stdout)["connectivity"] as? String, "full")
            XCTAssertTrue(try path(of: full.stdout)["portalURL"] is NSNull)

            lab.setMode("302")
            let portal = try reachability(["check"] + netns + probeArguments())
            XCTAssertEqual(portal.status, 1, "reachable, but not full")
            XCTAssertEqual(try path(of: portal.stdout)["connectivity"] as? String, "portal")
            XCTAssertEqual(try path(of: portal.stdout)["portalURL"] as? String, "http://10.88.0.2:8080/login?from=probe")

            lab.setMode("login")
            let login = try reachability(["check", "--netns", lab.client.name] + probeArguments() + ["--probe-expect", "connected-ok"])
            XCTAssertEqual(login.status, 1)
            XCTAssertTrue(login.stdout.contains("portal"), "the human line shows the word: \(login.stdout)")

            let limited = try reachability(["check"] + netns + probeArguments("tcp://10.88.0.2:8081"))
            XCTAssertEqual(limited.status, 1)
            XCTAssertEqual(try path(of: limited.stdout)["connectivity"] as? String, "limited")

            for (mode, expected) in [("bigheader", "limited"), ("slowloris", "limited"), ("endless", "portal")] {
                lab.setMode(mode)
                let hostile = try reachability(["check"] + netns + probeArguments())
                XCTAssertEqual(hostile.status, 1, mode)
                XCTAssertEqual(try path(of: hostile.stdout)["connectivity"] as? String, expected, mode)
            }

            let connectionsBefore = lab.connections
            try lab.client.ip("route", "del", "default")
            let none = try reachability(["check"] + netns + probeArguments())
            XCTAssertEqual(none.status, 1)
            XCTAssertEqual(try path(of: none.stdout)["connectivity"] as? String, "none")
            XCTAssertEqual(lab.connections, connectionsBefore, "no probe without a route")
            try lab.client.ip("route", "add", "default", "via", ProbeLab.serverAddress)
            let unprobed = try reachability(["check"] + netns)
            XCTAssertEqual(unprobed.status, 0)
            XCTAssertEqual(try path(of: unprobed.stdout)["connectivity"] as? String, "unknown", "in every record")
            XCTAssertTrue(try path(of: unprobed.stdout)["portalURL"] is NSNull)
            XCTAssertEqual(lab.connections, connectionsBefore, "nothing sent without --probe")
        }
    }

    func testWatch_printsConnectivityChanges_andWaitWaitsForFull() throws {
        try withProbeLab(mode: "302") { lab in
            let watch = try startReachability(["watch", "--netns", lab.client.name, "--json"] + probeArguments())
            defer { watch.terminateIfRunning() }
            let deadline = DispatchTime.now() + Self.deadline
            var seen: [String] = []
            while seen.last != "full", let line = watch.stdout.nextLine(before: deadline) {
                let connectivity = try XCTUnwrap(try path(of: line)["connectivity"] as? String)
                seen.append(connectivity)
                if connectivity == "portal" { lab.setMode("204") }
            }
            XCTAssertEqual(seen, ["unknown", "portal", "full"])
            watch.terminateIfRunning()
            _ = watch.waitForExit(before: .now() + Self.deadline)

            lab.setMode("511")
            let before = lab.connections
            let waiting = try startReachability(["wait", "--netns", lab.client.name] + probeArguments())
            defer { waiting.terminateIfRunning() }
            try waitUntil("wait probed once") { lab.connections > before }
            XCTAssertNil(waiting.waitForExit(before: .now() + 0.5), "a portal is not the internet")
            lab.setMode("204")
            XCTAssertEqual(waiting.waitForExit(before: .now() + Self.deadline), 0)

            let timedOut = try reachability(["wait", "--netns", lab.client.name, "--timeout", "1"] + probeArguments("tcp://10.88.0.2:8081"))
            XCTAssertEqual(timedOut.status, 1)
            XCTAssertTrue(timedOut.stderr.contains("connectivity limited"), timedOut.stderr)
        }
    }

    func testConnectivityReason_inJSON_humanLine_andVerboseLog() throws {
        try withProbeLab { lab in
            let netns = ["--netns", lab.client.name]
            let full = try reachability(["check", "--json"] + netns + probeArguments())
            XCTAssertTrue(try path(of: full.stdout)["connectivityReason"] is NSNull, "null when full: \(full.stdout)")
            let refused = try reachability(["check", "--json", "--verbose"] + netns + probeArguments("tcp://10.88.0.2:8081"))
            XCTAssertEqual(try path(of: refused.stdout)["connectivityReason"] as? String, "refused")
            XCTAssertTrue(refused.stderr.contains("reason=refused") && refused.stderr.contains("ECONNREFUSED"),
                          "--verbose logs the reason and its detail: \(refused.stderr)")
            lab.setMode("302")
            let human = try reachability(["check"] + netns + probeArguments())
            XCTAssertTrue(human.stdout.contains("portal (redirect) http://10.88.0.2:8080/login?from=probe"), human.stdout)
            let unprobed = try reachability(["check", "--json"] + netns)
            XCTAssertTrue(try path(of: unprobed.stdout)["connectivityReason"] is NSNull, "in every record")
        }
    }

    func testProbeIntervalAlone_accepted_probesAboutOnceASecond() throws {
        try withProbeLab { lab in
            let watch = try startReachability(["watch", "--netns", lab.client.name, "--json", "--probe", ProbeLab.url,
                                               "--probe-interval", "1"])
            defer { watch.terminateIfRunning() }
            try waitUntil("the first probe") { lab.connections >= 1 }
            let first = lab.connections, started = DispatchTime.now()
            try waitUntil("three more probes") { lab.connections >= first + 3 }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            XCTAssertGreaterThan(seconds, 1.5, "not faster than the interval")
            XCTAssertLessThan(seconds, 6, "about once a second")
            XCTAssertTrue(watch.process.isRunning, "accepted")
        }
    }

    func testProbeTimeoutLongerThanInterval_refusedNamingBothOptions_exit2() throws {
        let result = try reachability(["check", "--probe", "http://192.0.2.1/", "--probe-interval", "1", "--probe-timeout", "2"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--probe-timeout") && result.stderr.contains("--probe-interval"), result.stderr)
        XCTAssertFalse(result.stderr.contains("give http://"), "the URL is fine: \(result.stderr)")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }

    func testBadProbeInput_oneLineOnStderr_exit2() throws {
        for url in ["ftp://x", "http://", "tcp://host", "http://host:0/", "http://host/a path"] {
            let result = try reachability(["check", "--probe", url])
            XCTAssertEqual(result.status, 2, "\(url): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(url): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("invalid probe"), result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
    }
}
