import CoreMetrics
import Dispatch
import MetricsTestKit
import Synchronization
import XCTest
@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// The engine's swift-metrics: counted when a backend is there, nothing made when it is not.
final class EngineMetricsTests: XCTestCase {
    private static let timeout: TimeInterval = 30

    override func tearDown() {
        EngineMetrics.factoryForTesting = nil
        super.tearDown()
    }

    func testMake_withTheNoOpFactory_makesNothing() {
        XCTAssertNil(EngineMetrics.make(namespace: .current, factory: NOOPMetricsHandler.instance))
    }

    func testPublish_addsWhatTheEnginesCountersGained() throws {
        let metrics = TestMetrics()
        let engineMetrics = try XCTUnwrap(EngineMetrics.make(namespace: .named("blue"), factory: metrics))
        var before = EngineCounters()
        before.overruns = 1
        var after = before
        after.overruns = 3
        after.resyncs = 1
        after.forgedMessagesDropped = 5
        after.refusedAnnouncements = 4
        engineMetrics.publish(from: before, to: after)
        let blue = [("namespace", "blue")]
        XCTAssertEqual(try metrics.expectCounter("network_reachability_overruns_total", blue).totalValue, 2)
        XCTAssertEqual(try metrics.expectCounter("network_reachability_resyncs_total", blue).totalValue, 1)
        XCTAssertEqual(try metrics.expectCounter("network_reachability_forged_messages_dropped_total", blue).totalValue, 5)
        XCTAssertEqual(try metrics.expectCounter("network_reachability_captive_portal_announcements_refused_total", blue).totalValue, 4)
        XCTAssertEqual(try metrics.expectCounter("network_reachability_kernel_events_total", blue).totalValue, 0)
    }

    func testAMonitorsEngine_countsEventsLookupsCallbacks_andGaugesTheStatus() throws {
        // Given: a backend, and an engine made after it, in a namespace of our own
        let metrics = TestMetrics()
        EngineMetrics.factoryForTesting = metrics
        try withNamespace { namespace in
            try namespace.addVeth("v0", addresses: ["10.45.0.1/24"])
            try namespace.waitForLink("v0", carrier: true)
            let monitor = try namespace.monitor("198.51.100.1")
            let statuses = Mutex<[ReachabilityStatus]>([])
            let first = expectation(description: "first callback")
            let reachable = expectation(description: "reachable callback")
            monitor.setCallback { flags in
                let status = ReachabilityStatus(flags: flags)
                statuses.withLock { $0.append(status) }
                if status == .notReachable { first.fulfill() }
                if status == .reachableViaWiFi { reachable.fulfill() }
            }
            monitor.setDispatchQueue(DispatchQueue(label: "metrics-test"))
            defer { monitor.unschedule() }
            wait(for: [first], timeout: Self.timeout)

            // When: a default route comes, a kernel event
            try namespace.ip("route", "add", "default", "via", "10.45.0.2")
            wait(for: [reachable], timeout: Self.timeout)

            // Then
            let labels = [("namespace", namespace.name)]
            XCTAssertGreaterThan(try metrics.expectCounter("network_reachability_kernel_events_total", labels).totalValue, 0)
            XCTAssertGreaterThan(try metrics.expectCounter("network_reachability_lookups_total", labels).totalValue, 0)
            XCTAssertGreaterThanOrEqual(try metrics.expectCounter("network_reachability_callbacks_delivered_total", labels).totalValue, 2)
            let gauge = try metrics.expectGauge("network_reachability_status", labels + [("target", "198.51.100.1")])
            XCTAssertEqual(gauge.lastValue, Double(ReachabilityStatus.reachableViaWiFi.rawValue))
            XCTAssertTrue(gauge.values.contains(Double(ReachabilityStatus.notReachable.rawValue)), "\(gauge.values)")
        }
    }
}
