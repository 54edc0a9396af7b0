import Dispatch
import Foundation
import NetworkReachability
import XCTest

/// Anyone on a shared link can send Router Advertisements (a link-local source and hop limit 255
/// are all the kernel asks): a storm of them, each announcing another captive-portal API, must
/// neither flood the records nor pin connectivity at `unknown`, and must still end on the last
/// URI's answer. docs/semantics.md ("Announcements from the link") documents the bound: a storm of
/// T seconds shows at most 4 + 4T URIs of an interface, its last one 30 ms after it ends (500 ms
/// at worst); each makes at most one record, and one more with the API's answer for a monitor
/// that fetches it.
final class RouterAdvertisementStormTests: CommandTestCase {
    override class var makesNamespace: Bool { false }

    private static let spacing = 0.5
    private static let storm = 1000

    /// The documented bound on the URIs a storm of `seconds` shows: 4 + 4T.
    private static func shownBound(_ seconds: Double) -> Int { 4 + Int((4 * seconds).rounded(.down)) }

    func testAStormOfChangingURIs_boundedRecords_lastAnswerKept_endsOnTheLastURI() throws {
        try withCaptiveAPILab { api in
            let ra = try RALab(lab: api.tls.lab)
            // A monitor that fetches the API, its records stamped with when they came; one that does not.
            let fetching = try api.tls.lab.client.generalMonitor()
            fetching.fetchesCaptivePortalAPI = true
            fetching.captivePortalAPICAFile = api.tls.caFile
            let records = Recorder<(path: NetworkPath, at: DispatchTime)>()
            fetching.pathUpdateHandler = { records.append(($0, .now())) }
            fetching.start(queue: DispatchQueue(label: "storm-fetching"))
            let plainWatch = ConnectivityWatch(try api.tls.lab.client.generalMonitor())
            defer { [fetching, plainWatch.monitor].forEach { $0.cancel() } }
            // Given: the network's API said `captive` before the storm.
            let start = "https://probe.nrx.test:8444/as/captive/start"
            try ra.sendRA(start)
            records.wait(until: "the first API's answer") { $0.last?.path.connectivitySource == .captivePortalAPI(start) }
            XCTAssertEqual(records.all.last?.path.connectivity, .portal)
            plainWatch.paths.wait(until: "the first API shown") { $0.last?.captivePortalAPI == start }
            let (fetchingBefore, plainBefore, requestsBefore) = (records.count, plainWatch.paths.count, api.requests)

            // When: 1,000 RAs, each with another URI, one every 2 ms.
            let template = "https://probe.nrx.test:8444/as/open/{n}"
            let last = template.replacingOccurrences(of: "{n}", with: String(Self.storm - 1))
            let began = DispatchTime.now()
            let (sent, seconds, lastSent) = try ra.sendStorm(template, count: Self.storm, interval: 0.002)
            let window = Double(DispatchTime.now().uptimeNanoseconds - began.uptimeNanoseconds) / 1e9

            // Then: it ends on the last URI's answer, promptly.
            records.wait(until: "the last URI's answer") {
                $0.last?.path.captivePortalAPI == last && $0.last?.path.connectivitySource == .captivePortalAPI(last)
            }
            plainWatch.paths.wait(until: "the last URI shown") { $0.last?.captivePortalAPI == last }
            let (final, answeredAt) = try XCTUnwrap(records.all.last)
            let answeredAfter = Double(answeredAt.uptimeNanoseconds - lastSent.uptimeNanoseconds) / 1e9
            XCTAssertEqual(final.connectivity, .full, "\(final)")
            XCTAssertEqual(final.captivePortal, CaptivePortalStatus(captive: false, secondsRemaining: 120))
            XCTAssertNil(final.portalURL)
            // The last URI is shown 30 ms after the storm (500 ms at worst), then fetched (1.5 s for a loaded machine).
            XCTAssertLessThan(answeredAfter, Self.spacing + 1.5, "the final answer came late")

            // The records: within the documented bound for the time the storm took (the sender's
            // whole run, which holds it), and never `unknown`: the last answer stays until the next.
            let shownBound = Self.shownBound(window)
            let fetchingRecords = records.all.dropFirst(fetchingBefore).map(\.path)
            let plainRecords = plainWatch.paths.count - plainBefore
            XCTAssertEqual(sent, Self.storm)
            XCTAssertLessThanOrEqual(plainRecords, shownBound, "a monitor that does not fetch")
            XCTAssertLessThanOrEqual(fetchingRecords.count, 2 * shownBound, "a monitor that fetches the API")
            XCTAssertEqual(fetchingRecords.filter { $0.connectivity == .unknown }, [], "pinned at unknown")
            XCTAssertTrue(fetchingRecords.allSatisfy { $0.status == .satisfied })
            print("storm: \(sent) RAs in \(String(format: "%.3f", seconds)) s; records: \(fetchingRecords.count) fetching,",
                  "\(plainRecords) not fetching (bounds \(2 * shownBound), \(shownBound)); API requests \(api.requests - requestsBefore);",
                  "last URI's answer \(Int(answeredAfter * 1000)) ms after the last RA")
        }
    }

    /// What the issue saw: `watch --json --portal-api` printed a record per RA, nearly all with
    /// connectivity `unknown`. The storm's last URI here answers `captive`, the others `open`, so
    /// the record of the last answer is told apart from the kept ones.
    func testCommand_watchPortalAPI_printsBoundedRecords_neverUnknown_endsOnTheLastURI() throws {
        try withCaptiveAPILab { api in
            let ra = try RALab(lab: api.tls.lab)
            let watch = try startReachability(["watch", "--netns", api.tls.lab.client.name, "--json", "--portal-api",
                                               "--probe-ca", api.tls.caFile])
            defer { watch.terminateIfRunning() }
            _ = watch.stdout.nextLine(before: .now() + Self.deadline)  // the first record: the engine listens
            let start = "https://probe.nrx.test:8444/as/open/start", final = "https://probe.nrx.test:8444/as/captive/final"
            func path(_ line: String) throws -> [String: Any] { try XCTUnwrap(try parseRecord(line)["path"] as? [String: Any]) }
            func records(until done: ([String: Any]) -> Bool) throws -> [[String: Any]] {
                var seen: [[String: Any]] = []
                while let line = watch.stdout.nextLine(before: .now() + Self.deadline) {
                    seen.append(try path(line))
                    if done(seen[seen.count - 1]) { return seen }
                }
                XCTFail("no such record; saw \(seen.count): \(seen.last ?? [:])")
                return seen
            }
            try ra.sendRA(start)
            _ = try records { $0["captivePortalAPI"] as? String == start && $0["connectivity"] as? String == "full" }

            let began = DispatchTime.now()
            let (sent, _, _) = try ra.sendStorm("https://probe.nrx.test:8444/as/open/{n}", count: Self.storm - 1, interval: 0.002)
            try ra.sendRA(final)
            let window = Double(DispatchTime.now().uptimeNanoseconds - began.uptimeNanoseconds) / 1e9
            let printed = try records { $0["captivePortalAPI"] as? String == final && $0["connectivity"] as? String == "portal" }
            let shownBound = Self.shownBound(window)
            XCTAssertEqual(sent + 1, Self.storm)
            XCTAssertLessThanOrEqual(printed.count, 2 * shownBound, "records for \(Self.storm) RAs in \(window) s")
            XCTAssertEqual(printed.filter { $0["connectivity"] as? String == "unknown" }.count, 0, "pinned at unknown")
            let last = try XCTUnwrap(printed.last)
            XCTAssertEqual(last["portalURL"] as? String, "https://portal.nrx.test/login")
            XCTAssertEqual((last["captivePortal"] as? [String: Any])?["captive"] as? Bool, true)
            print("storm (watch --json --portal-api): \(Self.storm) RAs in \(String(format: "%.3f", window)) s,",
                  "\(printed.count) records (bound \(2 * shownBound))")
        }
    }
}
