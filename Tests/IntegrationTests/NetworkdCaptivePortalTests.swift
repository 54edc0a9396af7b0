import Foundation
@testable import NetworkReachabilityCore
import XCTest
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// systemd-networkd's `CAPTIVE_PORTAL=` (its link state file, here under a fixture root) reaches
/// `NetworkPath.captivePortalAPI`: it appears, changes, and disappears with the file.
final class NetworkdCaptivePortalTests: XCTestCase {
    func testStateFile_appears_changes_disappears() throws {
        try withNetworkdRecords { watch, write, remove in
            XCTAssertNil(watch.paths.all.last?.captivePortalAPI)
            func waitForAPI(_ expected: String?, line: UInt = #line) {
                watch.paths.wait(until: "captivePortalAPI is \(expected ?? "nil")", line: line) { $0.last?.captivePortalAPI == expected }
            }
            try write("# This is private data. Do not parse.\nADMIN_STATE=configured\nCAPTIVE_PORTAL=https://networkd.example/api\n")
            waitForAPI("https://networkd.example/api")
            try write("ADMIN_STATE=configured\nCAPTIVE_PORTAL=https://networkd.example/v2\n")
            waitForAPI("https://networkd.example/v2")
            try write("ADMIN_STATE=configured\nCAPTIVE_PORTAL=http://plain.example/\n")  // not https: ignored
            waitForAPI(nil)
            try write("CAPTIVE_PORTAL=https://networkd.example/v3\n")
            waitForAPI("https://networkd.example/v3")
            try remove()
            waitForAPI(nil)
            XCTAssertFalse(watch.paths.all.contains { $0.captivePortalAPI == "http://plain.example/" })
        }
    }

    func testStateFile_rewrittenInAStorm_isPacedAsAnRAs_theLastWins_andARefusalIsCounted() throws {
        try withNetworkdRecords { watch, write, _ in
            // When networkd rewrites the record a hundred times over about a second, each time another URI
            let start = Date()
            for step in 0..<100 {
                try write("ADMIN_STATE=configured\nCAPTIVE_PORTAL=https://storm.example/\(step)\n")
                usleep(10_000)  // the storm's own pace, not a wait for the library
            }
            let seconds = Date().timeIntervalSince(start)
            // Then the last one is shown, and at most four a second before it
            watch.paths.wait(until: "the last URI is shown") { $0.last?.captivePortalAPI == "https://storm.example/99" }
            var shown: [String] = []
            for uri in watch.paths.all.compactMap(\.captivePortalAPI) where uri != shown.last { shown.append(uri) }
            XCTAssertLessThanOrEqual(shown.count, 4 * Int(seconds.rounded(.up)) + 1, "over \(seconds) s: \(shown)")

            // When the record holds a value an RA's option would be refused for
            let engine = try XCTUnwrap(watch.monitor.engine)
            let refusedBefore = engine.currentCounters.refusedAnnouncements
            try write("CAPTIVE_PORTAL=https://p.example/\u{1b}[31mred\n")
            // Then nothing is shown, and the refusal is counted once, also when the file is written again
            watch.paths.wait(until: "the URI is gone") { $0.last?.captivePortalAPI == nil }
            try write("ADMIN_STATE=configured\nCAPTIVE_PORTAL=https://p.example/\u{1b}[31mred\n")
            try write("CAPTIVE_PORTAL=https://networkd.example/after\n")
            watch.paths.wait(until: "a good URI again") { $0.last?.captivePortalAPI == "https://networkd.example/after" }
            XCTAssertEqual(engine.currentCounters.refusedAnnouncements - refusedBefore, 1)
        }
    }

    /// A probe lab's client monitored with networkd's link records under a fixture root: `write`
    /// replaces the path's interface's record as networkd does (a temporary file renamed over the
    /// old one), `remove` deletes it.
    private func withNetworkdRecords(_ function: String = #function, file: StaticString = #filePath, line: UInt = #line,
                                     _ body: (ConnectivityWatch, _ write: (String) throws -> Void, _ remove: () throws -> Void) throws -> Void) throws {
        try withProbeLab(function, file: file, line: line) { lab in
            let root = NSTemporaryDirectory() + "nrx-networkd-\(getpid())-\(lab.client.name.hashValue.magnitude)"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: root) }
            let monitor = try lab.client.generalMonitor(policy: InterfacePolicy(sysfsRoot: nil, networkdLinksRoot: root))
            let watch = ConnectivityWatch(monitor)
            defer { monitor.cancel() }
            watch.paths.wait(until: "satisfied") { $0.last?.status == .satisfied }
            let index = try XCTUnwrap(watch.paths.all.last?.interface?.index)
            try body(watch, { text in
                try text.write(toFile: "\(root)/.\(index).tmp", atomically: false, encoding: .utf8)
                XCTAssertEqual(rename("\(root)/.\(index).tmp", "\(root)/\(index)"), 0)
            }, {
                XCTAssertEqual(unlink("\(root)/\(index)"), 0)
            })
        }
    }
}
