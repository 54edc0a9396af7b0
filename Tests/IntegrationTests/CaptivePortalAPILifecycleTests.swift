import Foundation
import NetworkReachability
@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import XCTest

/// The captive-portal API's fetch shares and cancels as a probe does (docs/semantics.md,
/// "Connectivity"): 1,000 monitors of a namespace with the same announced API send one request
/// per schedule, monitors of one prober on interfaces with different APIs each get their own
/// interface's answer, and a fetch cancelled in flight leaves no callback and no descriptor behind.
final class CaptivePortalAPILifecycleTests: XCTestCase {
    private static let portalURL = "https://portal.nrx.test/login"

    /// A monitor of the lab's client that fetches the API (trusting the test CA), not started.
    private func fetchingMonitor(_ api: CaptiveAPILab) throws -> PathMonitor {
        let monitor = try api.monitor()
        monitor.fetchesCaptivePortalAPI = true
        monitor.captivePortalAPICAFile = api.tls.caFile
        return monitor
    }

    /// The API is announced before any monitor starts, so every monitor's first satisfied path
    /// already names it: the first monitor's fetch is in flight or answered when the others
    /// start, and they join it or take its answer. Then one request per schedule: `portal`
    /// repeats after 5 s (the backoff's start; the 300 s interval without a probe is its ceiling).
    func testThousandMonitorsShareOneAPIFetch_oneRequestPerSchedule() throws {
        try withCaptiveAPILab { api in
            api.setMode("captive")
            try api.announce(CaptiveAPILab.uri, index: try api.tls.lab.client.index(of: "c0"))
            let queue = DispatchQueue(label: "thousand-api")
            let portal = Recorder<Int>()
            var monitors: [PathMonitor] = []
            for index in 0..<1000 {
                let monitor = try fetchingMonitor(api)
                monitor.pathUpdateHandler = { path in
                    if path.connectivity == .portal, path.portalURL == Self.portalURL, path.captivePortal?.captive == true,
                       path.connectivitySource == .captivePortalAPI(CaptiveAPILab.uri) {
                        portal.append(index)
                    }
                }
                monitor.start(queue: queue)
                monitors.append(monitor)
            }
            defer { monitors.forEach { $0.cancel() } }
            XCTAssertTrue(portal.wait(until: "all 1000 are portal with the API's URL") { Set($0).count == 1000 })
            XCTAssertEqual(api.tls.requests, 0, "no probe configured, none sent")
            try waitUntil("the next schedule's fetch") { api.requests >= 2 }
            Thread.sleep(forTimeInterval: 1)  // well inside the next backoff (10 s): no other fetch may come
            // Gaps, not a count: on a loaded machine the 1000 may take longer than the first
            // schedule, and the second fetch is then in before they all are portal.
            let times = api.requestTimes
            let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
            XCTAssertFalse(gaps.isEmpty, "the server recorded when it read: \(times)")
            // A timer never fires early; 50 ms is the server's own scheduling.
            XCTAssertEqual(gaps.filter { $0 < 5 - 0.05 }, [], "one API fetch per schedule for 1000 monitors: \(gaps)")
            XCTAssertEqual(portal.count, 1000, "the same answer again is not redelivered")
        }
    }

    /// The API server reads the request, sends its head and stalls: the monitor is cancelled while
    /// the fetch waits for the body (its timeout, 5 s without a probe, far off).
    func testCancelWhileTheFetchIsInFlight_noCallbackAfter_noLeakedDescriptor() throws {
        try withCaptiveAPILab { api in
            try api.announce(CaptiveAPILab.uri, index: try api.tls.lab.client.index(of: "c0"))
            // The process-wide TLS context for the test CA is made by the first fetch: made before counting.
            api.setMode("open")
            let warm = try fetchingMonitor(api)
            XCTAssertEqual(awaitPath { await warm.checkConnectivity() }.captivePortal?.captive, false)
            // The engine's file watches, which start with its first scheduled monitor and last as
            // long as it does, are made before counting too.
            _ = warm.engine?.onLoop { $0.startWatchingFiles() }
            api.setMode("stallbody")
            let requestsBefore = api.requests
            try assertCancelInFlightLeavesNothing(monitor: { try fetchingMonitor(api) }) {
                api.requests > requestsBefore
            }
            XCTAssertEqual(api.requests, requestsBefore + 1, "the cancelled fetch was the only one")
        }
    }

    /// One prober, two interfaces, two announced APIs: the general monitor's path uses `c0`, whose
    /// API says `captive: true`; an address monitor's uses `c1` (10.89.0.0/24 on-link), whose API
    /// says `captive: false`. Each monitor gets the answer of its own interface's API.
    func testMonitorsOfOneProber_onInterfacesWithDifferentAPIs_eachGetTheirOwnAnswer() throws {
        try withCaptiveAPILab { api in
            let client = api.tls.lab.client
            try client.addVeth("c1", peer: "c1p", addresses: ["10.89.0.1/24"], linkLocal: false)
            try client.waitForLink("c1", carrier: true)
            let openURI = "https://probe.nrx.test:8444/as/open"
            api.setMode("captive")
            try api.announce(CaptiveAPILab.uri, index: try client.index(of: "c0"))
            try api.announce(openURI, index: try client.index(of: "c1"))
            let general = try fetchingMonitor(api)
            let onC1 = try PathMonitor(address: "10.89.0.2", namespace: client.reference,
                                       interfacePolicy: InterfacePolicy(sysfsRoot: nil, networkdLinksRoot: api.networkdRoot))
            onC1.fetchesCaptivePortalAPI = true
            onC1.captivePortalAPICAFile = api.tls.caFile
            XCTAssertTrue(general.core.connectivityProber === onC1.core.connectivityProber, "one prober for both")
            let portal = ConnectivityWatch(general), open = ConnectivityWatch(onC1)
            defer { [general, onC1].forEach { $0.cancel() } }

            XCTAssertTrue(portal.wait(for: .portal))
            let portalPath = try XCTUnwrap(portal.paths.all.last)
            XCTAssertEqual(portalPath.interface?.name, "c0")
            XCTAssertEqual(portalPath.portalURL, Self.portalURL)
            XCTAssertEqual(portalPath.connectivitySource, .captivePortalAPI(CaptiveAPILab.uri))
            XCTAssertTrue(open.wait(for: .full))
            let openPath = try XCTUnwrap(open.paths.all.last)
            XCTAssertEqual(openPath.interface?.name, "c1")
            XCTAssertEqual(openPath.captivePortalAPI, openURI)
            XCTAssertEqual(openPath.connectivitySource, .captivePortalAPI(openURI))
            XCTAssertEqual(openPath.captivePortal, CaptivePortalStatus(captive: false, secondsRemaining: 120))
            XCTAssertNil(openPath.portalURL)
            XCTAssertEqual(portal.connectivities.filter { $0 == .full }, [], "never the other interface's answer")
            XCTAssertEqual(open.connectivities.filter { $0 == .portal }, [], "never the other interface's answer")
        }
    }
}
