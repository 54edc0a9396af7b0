import Foundation
import ReachabilityModel
import ReachabilityNetlink
import XCTest

/// networkd's link state files: `DNS=` per link, and `CAPTIVE_PORTAL=` paced as an RA's option 37.
final class NetworkdLinkRecordsTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "nrx-networkd-unit-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func write(_ index: Int, _ text: String) throws {
        try text.write(toFile: "\(root)/.\(index).tmp", atomically: false, encoding: .utf8)
        XCTAssertEqual(rename("\(root)/.\(index).tmp", "\(root)/\(index)"), 0)
    }

    private func shown(_ records: NetworkdLinkRecords, on index: Int) -> String? {
        var links = [index: Fixture.link(index, "v\(index)")]
        records.apply(to: &links)
        return links[index]?.captivePortalAPI
    }

    func testDNSLine_readsEveryFormNetworkdWrites() {
        let line = ArraySlice(Array("192.0.2.1 [2001:db8::53]:53 198.51.100.7:5353 fe80::1%2 203.0.113.9#dns.example bogus".utf8))
        XCTAssertEqual(Set(NetworkdLinkRecords.nameServers(inDNSLine: line).map(\.description)),
                       ["192.0.2.1", "2001:db8::53", "198.51.100.7", "fe80::1", "203.0.113.9"])
    }

    func testReload_tellsWhenALinksServersChange() throws {
        try write(2, "ADMIN_STATE=configured\nDNS=192.0.2.1\n")
        let records = NetworkdLinkRecords(root: root)
        XCTAssertEqual(records.nameServersByLink, [2: [try IPAddress("192.0.2.1")]])
        try write(2, "ADMIN_STATE=configured\nDNS=192.0.2.1\nNTP=\n")
        XCTAssertFalse(records.reload().nameServers, "the same servers")
        try write(2, "ADMIN_STATE=configured\n")
        XCTAssertTrue(records.reload().nameServers)
        XCTAssertEqual(records.nameServersByLink, [:])
    }

    func testCaptivePortal_inAStorm_isPacedAsAnRAs_andTheLastWins() throws {
        let records = NetworkdLinkRecords(root: root)
        var now: UInt64 = 1_000_000_000
        var shownValues: [String] = []
        func note(_ changed: Bool) {
            if changed, let uri = shown(records, on: 2), uri != shownValues.last { shownValues.append(uri) }
        }
        // The engine's timers: one armed for each due time the pacing asks for.
        var timers: [UInt64] = []
        func fireTimers(upTo time: UInt64) {
            while let next = timers.min(), next <= time {
                timers.removeAll { $0 == next }
                note(records.releaseHeld(now: max(next, now)))
                if let due = records.heldChangeDue() { timers.append(due) }
            }
        }
        // A second of rewrites, one every 5 ms, each another URI
        for step in 0..<200 {
            fireTimers(upTo: now)
            try write(2, "CAPTIVE_PORTAL=https://storm.example/\(step)\n")
            note(records.reload(now: now).captivePortals)
            if let due = records.heldChangeDue() { timers.append(due) }
            now += 5_000_000
        }
        // Then quiet: the held one is shown at its time
        XCTAssertFalse(timers.isEmpty, "the last URI waits for its time")
        fireTimers(upTo: .max)
        XCTAssertEqual(shown(records, on: 2), "https://storm.example/199", "the last one wins")
        XCTAssertLessThanOrEqual(shownValues.count, 4 + 1, "at most four a second, and the last: \(shownValues)")
    }

    func testRefusedValue_isReportedOnce_escaped_andShowsNothing() throws {
        try write(3, "CAPTIVE_PORTAL=https://p.example/\u{1b}[31mred\n")
        let records = NetworkdLinkRecords(root: root)
        XCTAssertNil(shown(records, on: 3))
        try write(3, "CAPTIVE_PORTAL=http://portal.example/api\nDNS=192.0.2.1\n")
        var changes = records.reload()
        XCTAssertEqual(changes.refusals, [CaptivePortalRefusal(interfaceIndex: 3, reason: "not an https:// URI", value: "http://portal.example/api")])
        try write(3, "CAPTIVE_PORTAL=http://portal.example/api\nDNS=192.0.2.2\n")
        changes = records.reload()
        XCTAssertEqual(changes.refusals, [], "the same refused value is not reported again")
        try write(3, "CAPTIVE_PORTAL=https://p.example/a\r\n")
        changes = records.reload()
        XCTAssertEqual(changes.refusals.map(\.value), ["https://p.example/a\\x0d"], "escaped, never raw")
        XCTAssertNil(shown(records, on: 3))
        try write(3, "CAPTIVE_PORTAL=urn:ietf:params:capport:unrestricted\n")
        _ = records.reload()
        XCTAssertNil(shown(records, on: 3), "the unrestricted URN is no API")
    }
}
