import Dispatch
import Foundation
import MetricsTestKit
import NetworkReachability
@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import XCTest

/// A refused captive-portal announcement is not silent: each is logged at debug level (`--verbose`)
/// with what was wrong and its value escaped, never its raw bytes, and counted in the metric
/// beside the forged messages. Real RAs from the upstream namespace, each a value the issue tried.
final class RouterAdvertisementRefusalTests: CommandTestCase {
    override class var makesNamespace: Bool { false }

    override func tearDown() {
        EngineMetrics.factoryForTesting = nil
        super.tearDown()
    }

    /// The option's value as `send_ra.py` takes it (`\xNN` escapes), the reason, and the escaped
    /// value the log line shows.
    private static let refused: [(sent: String, reason: String, logged: String)] = [
        ("https://" + String(repeating: "a", count: 1492), "longer than 1024 bytes",
         "https://" + String(repeating: "a", count: 88) + "... (1500 bytes)"),
        ("https://p.example/\\xff\\xfe", "a byte that is not ASCII", "https://p.example/\\xff\\xfe"),
        ("https://p.example/a\\x00b", "a NUL byte inside", "https://p.example/a\\x00b"),
        ("https://p.example/a\\r\\nInjected: yes", "a control byte", "https://p.example/a\\x0d\\x0aInjected:\\x20yes"),
        ("https://p.example/\\x1b[31mred", "a control byte", "https://p.example/\\x1b[31mred"),
        ("https://p.example/\\xc2\\x9b31m", "a byte that is not ASCII", "https://p.example/\\xc2\\x9b31m"),
        ("javascript:alert(document.cookie)", "not an https:// URI", "javascript:alert(document.cookie)"),
        ("file:///etc/passwd", "not an https:// URI", "file:///etc/passwd"),
        ("http://portal.example/api", "not an https:// URI", "http://portal.example/api"),
        ("https://p.example/a b", "a space", "https://p.example/a\\x20b"),
    ]

    func testEachRefusedValue_isLoggedWithItsReason_escaped_andCounted() throws {
        let metrics = TestMetrics()
        EngineMetrics.factoryForTesting = metrics
        try withRALab { ra in
            let client = ra.lab.client.name
            // An engine of our own in this process, made after the backend: the metric.
            let monitor = try ra.lab.client.generalMonitor()
            let watched = ConnectivityWatch(monitor)
            defer { monitor.cancel() }
            watched.paths.wait(forCount: 1)
            let watch = try startReachability(["watch", "--netns", client, "--json", "--verbose"])
            defer { watch.terminateIfRunning() }
            _ = watch.stdout.nextLine(before: .now() + Self.deadline)  // the first record: the engine listens
            for (sent, reason, logged) in Self.refused {
                try ra.sendRA(sent)
                var found: String?
                while found == nil, let line = watch.stderr.nextLine(before: .now() + Self.deadline) {
                    XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || $0.value >= 0x7f },
                                   "a raw byte in the log: \(line.debugDescription)")
                    if line.contains("refused a captive-portal announcement") { found = line }
                }
                let line = try XCTUnwrap(found, "no log line for \(logged)")
                XCTAssertTrue(line.contains("reason=\(reason)"), line)
                XCTAssertTrue(line.contains("value=\(logged)"), "\(line) lacks \(logged)")
                XCTAssertTrue(line.contains("debug"), line)
            }
            let counter = "network_reachability_captive_portal_announcements_refused_total"
            try waitUntil("the metric counted all ten") {
                (try? metrics.expectCounter(counter, [("namespace", client)]).totalValue) == Int64(Self.refused.count)
            }
            XCTAssertEqual(monitor.engine?.currentCounters.refusedAnnouncements, Self.refused.count)
            XCTAssertEqual(monitor.engine?.currentCounters.forgedMessagesDropped, 0, "the kernel's own messages")
            XCTAssertTrue(watched.paths.all.allSatisfy { $0.captivePortalAPI == nil }, "none ever shown")
        }
    }
}
