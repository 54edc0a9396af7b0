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
        try withProbeLab { lab in
            let root = NSTemporaryDirectory() + "nrx-networkd-\(getpid())-\(lab.client.name.hashValue.magnitude)"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: root) }
            let monitor = try lab.client.generalMonitor(policy: InterfacePolicy(sysfsRoot: nil, networkdLinksRoot: root))
            let watch = ConnectivityWatch(monitor)
            defer { monitor.cancel() }
            watch.paths.wait(until: "satisfied") { $0.last?.status == .satisfied }
            let index = try XCTUnwrap(watch.paths.all.last?.interface?.index)
            XCTAssertNil(watch.paths.all.last?.captivePortalAPI)
            func write(_ text: String) throws {
                // As networkd writes: a temporary file renamed over the old one.
                try text.write(toFile: "\(root)/.\(index).tmp", atomically: false, encoding: .utf8)
                XCTAssertEqual(rename("\(root)/.\(index).tmp", "\(root)/\(index)"), 0)
            }
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
            XCTAssertEqual(unlink("\(root)/\(index)"), 0)
            waitForAPI(nil)
            XCTAssertFalse(watch.paths.all.contains { $0.captivePortalAPI == "http://plain.example/" })
        }
    }
}
