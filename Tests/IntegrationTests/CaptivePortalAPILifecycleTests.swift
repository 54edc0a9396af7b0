import Foundation
import NetworkReachability
import XCTest

/// The captive-portal API's fetch shares and cancels as a probe does (docs/semantics.md,
/// "Connectivity"): 1,000 monitors of a namespace with the same announced API send one request
/// per schedule, and a fetch cancelled in flight leaves no callback and no descriptor behind.
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
            XCTAssertEqual(api.requests, 1, "one API fetch for 1000 monitors")
            XCTAssertEqual(api.tls.requests, 0, "no probe configured, none sent")
            try waitUntil("the next schedule's fetch") { api.requests >= 2 }
            Thread.sleep(forTimeInterval: 1)  // well inside the next backoff (10 s): no other fetch may come
            XCTAssertEqual(api.requests, 2, "one API fetch per schedule")
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
            api.setMode("stallbody")
            let requestsBefore = api.requests
            try assertCancelInFlightLeavesNothing(monitor: { try fetchingMonitor(api) }) {
                api.requests > requestsBefore
            }
            XCTAssertEqual(api.requests, requestsBefore + 1, "the cancelled fetch was the only one")
        }
    }
}
