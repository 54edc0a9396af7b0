import Foundation
import NetworkReachability
import XCTest

/// A hostile portal redirects the probe to a `javascript:`, `data:` or `file:` URL. An application
/// opens `portalURL` (that is what it is for), so only `http://` and `https://` are surfaced: the
/// answer is still `portal`, without a URL, and its reason says why (docs/semantics.md, "Connectivity").
final class ConnectivityRedirectSchemeTests: CommandTestCase {
    override class var makesNamespace: Bool { false }

    private static let hostile = [
        ("302js", "javascript:alert(document.cookie)"),
        ("302data", "data:text/html,<script>alert(document.cookie)</script>"),
        ("302file", "file:///etc/passwd"),
    ]

    func testRedirectToJavascriptDataFile_isAPortalWithoutAURL_andSaysWhy() throws {
        try withProbeLab { lab in
            for (mode, location) in Self.hostile {
                let path = try lab.checkedPath(mode, probe: try ProbeLab.probe())
                XCTAssertEqual(path.connectivity, .portal, "\(mode): \(path)")
                XCTAssertNil(path.portalURL, "\(mode): \(location) surfaced")
                XCTAssertEqual(path.connectivityReason, "redirect to a non-HTTP URL", mode)
                XCTAssertEqual(path.connectivitySource, .probe(ProbeLab.url))
            }
            // The same server's relative redirect is still made absolute and surfaced.
            let plain = try lab.checkedPath("302", probe: try ProbeLab.probe())
            XCTAssertEqual(plain.portalURL, "http://10.88.0.2:8080/login?from=probe")
            XCTAssertEqual(plain.connectivityReason, "redirect")
        }
    }

    /// What the issue saw with `check --json --probe`: the JSON's `portalURL` and the human line.
    func testCommand_checkShowsNoURL_inTheJSONNorTheHumanLine() throws {
        try withProbeLab { lab in
            let arguments = ["check", "--netns", lab.client.name, "--probe", ProbeLab.url, "--probe-timeout", "1.5"]
            for (mode, location) in Self.hostile {
                lab.setMode(mode)
                let json = try reachability(arguments + ["--json"])
                XCTAssertEqual(json.status, 1, "\(mode): reachable, but not full")
                let path = try XCTUnwrap(try parseRecord(json.stdout)["path"] as? [String: Any])
                XCTAssertEqual(path["connectivity"] as? String, "portal", json.stdout)
                XCTAssertTrue(path["portalURL"] is NSNull, "\(mode): \(json.stdout)")
                XCTAssertEqual(path["connectivityReason"] as? String, "redirect to a non-HTTP URL", json.stdout)
                let human = try reachability(arguments)
                XCTAssertTrue(human.stdout.contains("portal (redirect to a non-HTTP URL)"), human.stdout)
                XCTAssertFalse(human.stdout.contains(location), "\(mode): \(human.stdout)")
                XCTAssertFalse(json.stdout.contains(location), "\(mode): \(json.stdout)")
            }
        }
    }
}
