import Dispatch
import Foundation
import NetworkReachability
@testable import NetworkReachabilityCore
import ReachabilityProbing
import XCTest

/// RFC 8908: the captive-portal API the network announced (here through networkd's link state
/// file, under a fixture root, and a real RA for the command), fetched over TLS from a real
/// server in the upstream namespace: its word makes `portal` or `full`, and a failing or garbage
/// API leaves `captivePortal` nil and the probe's answer, within bounded time.
final class CaptivePortalAPITests: CommandTestCase {
    override class var makesNamespace: Bool { false }

    private static let captive = CaptivePortalStatus(
        captive: true, userPortalURL: "https://portal.nrx.test/login", venueInfoURL: "https://venue.nrx.test/",
        canExtendSession: true, secondsRemaining: 300, bytesRemaining: 1_000_000)

    /// A started monitor of the lab's client whose interface has the API announced.
    private func announcedWatch(_ api: CaptiveAPILab, configure: (PathMonitor) throws -> Void) throws -> ConnectivityWatch {
        let monitor = try api.monitor()
        try configure(monitor)
        let watch = ConnectivityWatch(monitor)
        watch.paths.wait(until: "satisfied") { $0.last?.status == .satisfied }
        try api.announce(CaptiveAPILab.uri, index: try XCTUnwrap(watch.paths.all.last?.interface?.index))
        return watch
    }

    func testWithoutAProbe_captiveIsPortalWithItsURL_notCaptiveIsFull() throws {
        try withCaptiveAPILab { api in
            api.setMode("captive")
            let watch = try announcedWatch(api) { monitor in
                monitor.fetchesCaptivePortalAPI = true
                monitor.captivePortalAPICAFile = api.tls.caFile
            }
            defer { watch.monitor.cancel() }
            watch.paths.wait(until: "portal from the API") { $0.last?.captivePortal != nil }
            let path = try XCTUnwrap(watch.paths.all.last)
            XCTAssertEqual(path.connectivity, .portal, "\(path)")
            XCTAssertEqual(path.portalURL, "https://portal.nrx.test/login")
            XCTAssertEqual(path.connectivityReason, "captive portal API")
            XCTAssertEqual(path.connectivitySource, .captivePortalAPI(CaptiveAPILab.uri))
            XCTAssertEqual(path.captivePortal, Self.captive)
            XCTAssertEqual(api.accept, "application/captive+json")
            XCTAssertEqual(api.tls.requests, 0, "no probe without one configured")

            api.setMode("open")
            let open = awaitPath { await watch.monitor.checkConnectivity() }
            XCTAssertEqual(open.connectivity, .full, "\(open)")
            XCTAssertNil(open.portalURL)
            XCTAssertEqual(open.captivePortal, CaptivePortalStatus(captive: false, secondsRemaining: 120))

            api.setMode("garbage")
            let failed = awaitPath { await watch.monitor.checkConnectivity() }
            XCTAssertEqual(failed.connectivity, .unknown, "no probe to fall back on: \(failed)")
            XCTAssertEqual(failed.connectivityReason, "captive portal API failed")
            XCTAssertNil(failed.captivePortal)
            XCTAssertNil(failed.portalURL)
        }
    }

    func testWithAProbe_aBrokenAPI_leavesTheProbesAnswer_withinBoundedTime() throws {
        try withCaptiveAPILab { api in
            api.setMode("open")
            let watch = try announcedWatch(api) { $0.connectivityProbe = try api.tls.probe() }
            defer { watch.monitor.cancel() }
            watch.paths.wait(until: "the probe's answer beside the API's") { $0.last?.captivePortal != nil }
            let open = try XCTUnwrap(watch.paths.all.last)
            XCTAssertEqual(open.connectivity, .full, "captive: false: the probe decides: \(open)")
            XCTAssertEqual(open.connectivitySource, .probe(TLSLab.url))
            XCTAssertEqual(open.captivePortal?.captive, false)

            for mode in ["wrongtype", "garbage", "huge", "stallbody"] {
                api.setMode(mode)
                let requests = api.requests
                let started = DispatchTime.now()
                let path = awaitPath { await watch.monitor.checkConnectivity() }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                XCTAssertEqual(path.connectivity, .full, "\(mode): the probe's answer stands: \(path)")
                XCTAssertNil(path.captivePortal, "\(mode): \(path)")
                XCTAssertGreaterThan(api.requests, requests, "\(mode): the API was asked")
                // The API's timeout, then the probe's (1.5 s each), and slack for a loaded machine.
                XCTAssertLessThan(seconds, 1.5 + 1.5 + 3, "\(mode) bounded")
            }

            api.setMode("captive")
            let probes = api.tls.requests
            let portal = awaitPath { await watch.monitor.checkConnectivity() }
            XCTAssertEqual(portal.connectivity, .portal, "\(portal)")
            XCTAssertEqual(portal.portalURL, "https://portal.nrx.test/login")
            XCTAssertEqual(portal.captivePortal, Self.captive)
            XCTAssertEqual(api.tls.requests, probes, "the network's word: no probe sent")
        }
    }

    func testMonitorsOfANamespace_shareOneFetch() throws {
        try withCaptiveAPILab { api in
            api.setMode("captive")
            let watches = try (0..<20).map { _ in
                let monitor = try api.monitor()
                monitor.fetchesCaptivePortalAPI = true
                monitor.captivePortalAPICAFile = api.tls.caFile
                return ConnectivityWatch(monitor)
            }
            defer { watches.forEach { $0.monitor.cancel() } }
            for watch in watches { watch.paths.wait(until: "satisfied") { $0.last?.status == .satisfied } }
            try api.announce(CaptiveAPILab.uri, index: try XCTUnwrap(watches[0].paths.all.last?.interface?.index))
            for watch in watches { watch.wait(for: .portal) }
            // One fetch answers all; a second at most, when the announcement reached some monitors
            // after the fetch for the others had started (their path moved: it starts again).
            XCTAssertLessThanOrEqual(api.requests, 2, "shared, not one per monitor")
            XCTAssertTrue(watches.allSatisfy { $0.paths.all.last?.captivePortal == Self.captive })
        }
    }

    func testOneProber_forAProbe_whetherTheAPIIsAlsoAskedForAlone() throws {
        try withProbeLab { lab in
            let probe = try ProbeLab.probe()
            let plain = try lab.client.generalMonitor(), asking = try lab.client.generalMonitor()
            let alone = try lab.client.generalMonitor()
            plain.connectivityProbe = probe
            asking.connectivityProbe = probe
            asking.fetchesCaptivePortalAPI = true
            alone.fetchesCaptivePortalAPI = true
            XCTAssertTrue(asking.fetchesCaptivePortalAPI)
            XCTAssertNotNil(plain.core.connectivityProber)
            XCTAssertTrue(plain.core.connectivityProber === asking.core.connectivityProber, "a probe fetches the API anyway")
            XCTAssertFalse(alone.core.connectivityProber === plain.core.connectivityProber)
            XCTAssertNil(alone.connectivityProbe)
            // A CA set before the opt-in is kept (no prober is made until then).
            let later = try lab.client.generalMonitor()
            later.captivePortalAPICAFile = "/nonexistent/ca.pem"
            XCTAssertNil(later.core.connectivityProber)
            later.fetchesCaptivePortalAPI = true
            XCTAssertEqual((later.core.connectivityProber as? ConnectivityProber)?.configuration.apiRoots, "/nonexistent/ca.pem")
            later.fetchesCaptivePortalAPI = false
            XCTAssertNil(later.core.connectivityProber, "nothing asked: no prober")
            [plain, asking, alone, later].forEach { $0.cancel() }
        }
    }

    func testCommand_checkHasTheKey_watchShowsTheAPIsAnswer_fromARealRA() throws {
        try withCaptiveAPILab { api in
            let ra = try RALab(lab: api.tls.lab)
            let client = api.tls.lab.client.name
            let check = try reachability(["check", "--netns", client, "--json", "--portal-api", "--probe-ca", api.tls.caFile])
            let checked = try XCTUnwrap(try parseRecord(check.stdout)["path"] as? [String: Any])
            XCTAssertTrue(checked["captivePortal"] is NSNull, "nothing announced, nothing fetched: \(check.stdout)")

            api.setMode("captive")
            let watch = try startReachability(["watch", "--netns", client, "--json", "--verbose", "--portal-api",
                                               "--probe-ca", api.tls.caFile])
            defer { watch.terminateIfRunning() }
            _ = watch.stdout.nextLine(before: .now() + Self.deadline)  // the first record: the engine listens
            try ra.sendRA(CaptiveAPILab.uri)
            var portal: [String: Any]?
            while portal == nil, let line = watch.stdout.nextLine(before: .now() + Self.deadline) {
                let path = try XCTUnwrap(try parseRecord(line)["path"] as? [String: Any])
                portal = path["captivePortal"] as? [String: Any]
                if portal != nil {
                    XCTAssertEqual(path["connectivity"] as? String, "portal", line)
                    XCTAssertEqual(path["portalURL"] as? String, "https://portal.nrx.test/login", line)
                }
            }
            let answer = try XCTUnwrap(portal, "a record with the API's answer")
            XCTAssertEqual(Set(answer.keys), ["captive", "userPortalURL", "venueInfoURL", "canExtendSession",
                                              "secondsRemaining", "bytesRemaining"])
            XCTAssertEqual(answer["captive"] as? Bool, true)
            XCTAssertEqual(answer["secondsRemaining"] as? Int, 300)

            // A garbage API announced next: null again, and --verbose says why.
            api.setMode("garbage")
            try ra.sendRA("https://probe.nrx.test:8444/v2")
            var why: String?
            while why == nil, let line = watch.stderr.nextLine(before: .now() + Self.deadline) {
                if line.contains("captive-portal API failed") { why = line }
            }
            XCTAssertTrue(why?.contains("not the API's JSON") ?? false, why ?? "no log line")
        }
    }
}
