import Dispatch
import Foundation
import NetworkReachability
import XCTest

/// RFC 8910: the captive-portal API a network announces in its Router Advertisements (option 37)
/// reaches `NetworkPath.captivePortalAPI` from the engine's own socket, with no probe traffic.
final class CaptivePortalAnnouncementTests: CommandTestCase {
    override class var makesNamespace: Bool { false }

    private func waitForAPI(_ watch: ConnectivityWatch, _ expected: String?, file: StaticString = #filePath, line: UInt = #line) {
        watch.paths.wait(until: "captivePortalAPI is \(expected ?? "nil")", file: file, line: line) {
            $0.last?.status == .satisfied && $0.last?.captivePortalAPI == expected
        }
    }

    func testAnnounced_replaced_unrestricted_andClearedByLinkDown() throws {
        try withRALab { ra in
            let watch = ConnectivityWatch(try ra.lab.client.generalMonitor())
            defer { watch.monitor.cancel() }
            watch.paths.wait(forCount: 1)
            XCTAssertNil(watch.paths.all.last?.captivePortalAPI)
            try ra.sendRA("https://portal.example/api")
            waitForAPI(watch, "https://portal.example/api")
            try ra.sendRA("https://other.example/capport")
            waitForAPI(watch, "https://other.example/capport")
            try ra.sendRA("urn:ietf:params:capport:unrestricted")
            waitForAPI(watch, nil)
            try ra.sendRA("https://portal.example/api")
            waitForAPI(watch, "https://portal.example/api")
            try ra.lab.client.ip("link", "set", "c0", "down")
            watch.paths.wait(until: "the path is not satisfied") { $0.last?.status != .satisfied }
            XCTAssertNil(watch.paths.all.last?.captivePortalAPI)
            try ra.lab.client.ip("link", "set", "c0", "up")
            try ra.lab.client.ip("route", "replace", "default", "via", ProbeLab.serverAddress)
            watch.paths.wait(until: "satisfied again") { $0.last?.status == .satisfied }
            XCTAssertNil(watch.paths.all.last?.captivePortalAPI, "the old network's announcement is gone")
        }
    }

    /// A malformed option changes nothing and breaks nothing: the path keeps the last good URI,
    /// never shows the bad one, and the next good announcement still arrives.
    func testMalformedOptions_changeNothing() throws {
        try withRALab { ra in
            let watch = ConnectivityWatch(try ra.lab.client.generalMonitor())
            defer { watch.monitor.cancel() }
            try ra.sendRA("https://portal.example/api")
            waitForAPI(watch, "https://portal.example/api")
            try ra.sendRA("https://portal.example/\\x01\\x1b[31mred")  // control characters
            try ra.sendRA("https://portal.example/a b")  // a space
            try ra.sendRA("http://portal.example/api")  // not https
            try ra.sendRA("https://" + String(repeating: "a", count: 2000))  // enormous
            try ra.sendRA("https://portal.example/x", rawLength: 40)  // a length beyond the packet
            try ra.sendRA("https://portal.example/\\xc3\\xa9")  // not ASCII
            try ra.sendRA("https://good.example/after")
            waitForAPI(watch, "https://good.example/after")
            let seen = Set(watch.paths.all.compactMap(\.captivePortalAPI))
            XCTAssertEqual(seen, ["https://portal.example/api", "https://good.example/after"], "only good URIs, ever")
        }
    }

    func testCommand_watchShowsIt_checkHasTheKey() throws {
        try withRALab { ra in
            let check = try reachability(["check", "--netns", ra.lab.client.name, "--json"])
            let record = try parseRecord(check.stdout)["path"] as? [String: Any]
            XCTAssertTrue(record?["captivePortalAPI"] is NSNull, "in every record: \(check.stdout)")
            let watch = try startReachability(["watch", "--netns", ra.lab.client.name, "--json"])
            defer { watch.terminateIfRunning() }
            _ = watch.stdout.nextLine(before: .now() + Self.deadline)  // the first record: the engine listens
            try ra.sendRA("https://portal.example/api")
            let line = try XCTUnwrap(watch.stdout.nextLine(before: .now() + Self.deadline))
            let path = try XCTUnwrap(try parseRecord(line)["path"] as? [String: Any])
            XCTAssertEqual(path["captivePortalAPI"] as? String, "https://portal.example/api", line)
        }
    }
}
