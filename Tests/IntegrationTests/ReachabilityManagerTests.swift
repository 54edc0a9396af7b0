import Foundation
import NetworkReachability
import ReachabilityCompat
import XCTest

/// `ReachabilityManager` against a real kernel: throwaway namespaces whose carrier and default
/// route the tests change.
final class ReachabilityManagerTests: XCTestCase {
    private let timeout = PortingTests.timeout

    /// A manager over the general path of `namespace`, with its block, delegate and notification recorded.
    private final class Harness {
        let monitor: PathMonitor
        let manager: ReachabilityManager
        let queue = DispatchQueue(label: "ReachabilityManagerTests.manager")
        /// "block:STATUS", "delegate:STATUS", "notification:STATUS", in the order they ran.
        let events = PortingRecorder<String>()
        /// Statuses given to the block.
        let statuses = PortingRecorder<ReachabilityStatus>()
        /// Flags of every path the manager's monitor delivered (after the manager's handler ran for it).
        let paths = PortingRecorder<ReachabilityFlags>()
        private let observer: NSObjectProtocol
        private let delegate: EventDelegate

        init(namespace: PortingNamespace) throws {
            monitor = PathMonitor(namespace: namespace.networkNamespace)
            manager = ReachabilityManager(monitor: monitor, queue: queue)
            let events = self.events
            let statuses = self.statuses
            let manager = self.manager
            observer = NotificationCenter.default.addObserver(
                forName: ReachabilityManager.didChangeNotification, object: manager, queue: nil
            ) { notification in
                let status = notification.userInfo?[ReachabilityManager.statusUserInfoKey] as? ReachabilityStatus
                let sameObject = (notification.object as AnyObject?) === manager
                events.append("notification:\(status.map(\.description) ?? "missing")\(sameObject ? "" : " (wrong object)")")
            }
            manager.setReachabilityStatusChangeBlock { status in
                events.append("block:\(status)")
                statuses.append(status)
            }
            delegate = EventDelegate(events: events)
            manager.delegate = delegate
            // Runs in the same delivery as the manager's flags handler, right after it.
            let paths = self.paths
            monitor.pathUpdateHandler = { path in paths.append(path.flags) }
        }

        deinit {
            NotificationCenter.default.removeObserver(observer)
        }
    }

    /// Records "delegate:STATUS" events.
    private final class EventDelegate: ReachabilityManagerDelegate {
        let events: PortingRecorder<String>

        init(events: PortingRecorder<String>) {
            self.events = events
        }

        func reachabilityManager(_ manager: ReachabilityManager, didChange status: ReachabilityStatus) {
            events.append("delegate:\(status)")
        }
    }

    private func waitForStatuses(_ harness: Harness, _ expected: [ReachabilityStatus], file: StaticString = #filePath, line: UInt = #line) {
        let count = expected.count
        wait(for: [harness.statuses.expectation(count: count)], timeout: timeout)
        XCTAssertEqual(harness.statuses.values, expected, file: file, line: line)
    }

    // MARK: - First status

    func testStartMonitoring_whenNamespaceStartsOffline_deliversNotReachableFirst() throws {
        try withPortingNamespace(prefix: "nrx-af-", online: false) { namespace in
            // Given a namespace whose only link has no carrier
            let harness = try Harness(namespace: namespace)
            XCTAssertEqual(harness.manager.status, .unknown, "unknown until monitoring evaluated once")
            XCTAssertEqual(harness.manager.localizedNetworkReachabilityStatusString, "Unknown")

            // When monitoring starts
            harness.manager.startMonitoring()

            // Then the first status is delivered although it is "not reachable"
            waitForStatuses(harness, [.notReachable])
            wait(for: [harness.events.expectation("notification") { $0.contains("notification:notReachable") }], timeout: timeout)
            XCTAssertEqual(harness.manager.status, .notReachable)
            XCTAssertFalse(harness.manager.isReachable)
            XCTAssertFalse(harness.manager.isReachableViaWiFi)
            XCTAssertFalse(harness.manager.isReachableViaWWAN)
            XCTAssertEqual(harness.manager.localizedNetworkReachabilityStatusString, "Not Reachable")

            // And the carrier coming back is the next status
            try namespace.setCarrier(true)
            waitForStatuses(harness, [.notReachable, .reachableViaWiFi])
            XCTAssertTrue(harness.manager.isReachableViaWiFi)
            XCTAssertEqual(harness.manager.localizedNetworkReachabilityStatusString, "Reachable via WiFi")
        }
    }

    // MARK: - Dedupe

    func testStatusDedupe_whenFlagsChangeButStatusDoesNot_deliversNothing() throws {
        try withPortingNamespace(prefix: "nrx-af-") { namespace in
            let harness = try Harness(namespace: namespace)
            harness.manager.startMonitoring()
            waitForStatuses(harness, [.reachableViaWiFi])
            wait(for: [harness.paths.expectation(count: 1)], timeout: timeout)
            // (the path may also change without its flags, as link-local addresses arrive)
            XCTAssertTrue(harness.paths.values.allSatisfy { $0 == [.reachable] }, "\(harness.paths.values)")

            // When the default route loses its gateway, the flags gain isDirect but the status stays
            try namespace.ip("route", "replace", "default", "dev", "v0")
            wait(for: [harness.paths.expectation("isDirect seen") { $0.last == [.reachable, .isDirect] }], timeout: timeout)
            // The path handler runs after the manager's handler in the same delivery: the manager saw it.
            harness.queue.sync {}
            XCTAssertEqual(harness.statuses.values, [.reachableViaWiFi], "same status, nothing delivered")

            // And back: the flags change again, the status still does not
            try namespace.ip("route", "replace", "default", "via", "10.9.0.2")
            wait(for: [harness.paths.expectation("isDirect gone") { paths in
                (paths.lastIndex(of: [.reachable]) ?? -1) > (paths.lastIndex(of: [.reachable, .isDirect]) ?? Int.max)
            }], timeout: timeout)
            harness.queue.sync {}
            XCTAssertEqual(harness.statuses.values, [.reachableViaWiFi])

            // While a real change of status is still delivered, once
            try namespace.setCarrier(false)
            waitForStatuses(harness, [.reachableViaWiFi, .notReachable])
            XCTAssertEqual(harness.events.values.filter { $0.hasPrefix("notification:") },
                           ["notification:reachableViaWiFi", "notification:notReachable"])
        }
    }

    // MARK: - Order

    func testNotificationOrder_equalsBlockOrder_withDelegateBetween() throws {
        try withPortingNamespace(prefix: "nrx-af-") { namespace in
            let harness = try Harness(namespace: namespace)
            harness.manager.startMonitoring()
            waitForStatuses(harness, [.reachableViaWiFi])

            try namespace.setCarrier(false)
            waitForStatuses(harness, [.reachableViaWiFi, .notReachable])
            try namespace.setCarrier(true)
            waitForStatuses(harness, [.reachableViaWiFi, .notReachable, .reachableViaWiFi])
            try namespace.ip("route", "del", "default")
            waitForStatuses(harness, [.reachableViaWiFi, .notReachable, .reachableViaWiFi, .notReachable])
            wait(for: [harness.events.expectation(count: 12)], timeout: timeout)

            // Then for each status: the block, the delegate, the notification, and statuses in the same order
            let expected = harness.statuses.values.flatMap { status in
                ["block:\(status)", "delegate:\(status)", "notification:\(status)"]
            }
            XCTAssertEqual(harness.events.values, expected)
        }
    }

    // MARK: - Restart

    func testStopThenStartMonitoring_deliversCurrentStatusAgain() throws {
        try withPortingNamespace(prefix: "nrx-af-") { namespace in
            let harness = try Harness(namespace: namespace)
            harness.manager.startMonitoring()
            waitForStatuses(harness, [.reachableViaWiFi])

            // When monitoring stops and starts again, the same status is delivered again
            harness.manager.stopMonitoring()
            harness.manager.startMonitoring()
            waitForStatuses(harness, [.reachableViaWiFi, .reachableViaWiFi])

            // When the carrier goes while monitoring is stopped, nothing is delivered and the status is kept
            harness.manager.stopMonitoring()
            try namespace.setCarrier(false)
            XCTAssertEqual(try harness.monitor.flags(), [.reachable, .connectionRequired])
            harness.queue.sync {}
            XCTAssertEqual(harness.statuses.values, [.reachableViaWiFi, .reachableViaWiFi])
            XCTAssertEqual(harness.manager.status, .reachableViaWiFi)

            // And starting again delivers the status as it is now
            harness.manager.startMonitoring()
            waitForStatuses(harness, [.reachableViaWiFi, .reachableViaWiFi, .notReachable])
        }
    }

    // MARK: - Lifetime and creation

    func testManager_whenReleasedWhileMonitoring_isDeallocated() throws {
        try withPortingNamespace(prefix: "nrx-af-") { namespace in
            weak var weakManager: ReachabilityManager?
            let statuses = PortingRecorder<ReachabilityStatus>()
            let queue = DispatchQueue(label: "ReachabilityManagerTests.release")
            do {
                let manager = ReachabilityManager(monitor: PathMonitor(namespace: namespace.networkNamespace), queue: queue)
                weakManager = manager
                manager.setReachabilityStatusChangeBlock { statuses.append($0) }
                manager.startMonitoring()
                wait(for: [statuses.expectation(count: 1)], timeout: timeout)
            }
            queue.sync {}
            XCTAssertNil(weakManager, "the monitor must not keep its manager alive")
        }
    }

    func testInit_withBadDomainOrAddress_throws() {
        XCTAssertThrowsError(try ReachabilityManager(domain: "")) { error in
            guard case ReachabilityError.invalidHostName = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try ReachabilityManager(domain: "bad..example")) { error in
            guard case ReachabilityError.invalidHostName = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try ReachabilityManager(address: "10.0.0.300")) { error in
            guard case ReachabilityError.invalidAddress = error else { return XCTFail("\(error)") }
        }
    }

    func testStatusStrings_areAFNetworkings() {
        XCTAssertEqual(ReachabilityStatus.unknown.localizedDescription, "Unknown")
        XCTAssertEqual(ReachabilityStatus.notReachable.localizedDescription, "Not Reachable")
        XCTAssertEqual(ReachabilityStatus.reachableViaWWAN.localizedDescription, "Reachable via WWAN")
        XCTAssertEqual(ReachabilityStatus.reachableViaWiFi.localizedDescription, "Reachable via WiFi")
        XCTAssertEqual(ReachabilityManager.didChangeNotification.rawValue, "com.alamofire.networking.reachability.change")
        XCTAssertEqual(ReachabilityManager.statusUserInfoKey, "AFNetworkingReachabilityNotificationStatusItem")
    }
}
