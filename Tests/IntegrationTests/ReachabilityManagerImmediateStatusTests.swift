import Dispatch
import NetworkReachability
import Synchronization
import XCTest

/// `startMonitoring()` knows the status before it returns (AFNetworking's managers say "unknown"
/// until their first callback), and the block still follows on the queue, once.
final class ReachabilityManagerImmediateStatusTests: XCTestCase {
    private static let timeout: TimeInterval = 30

    func testStartMonitoring_setsTheStatusBeforeReturning_thenDeliversItOnce() throws {
        try withNamespace { namespace in
            // Given: an on-link address, so reachable; a manager that has not started
            try namespace.addVeth("v0", addresses: ["10.41.0.1/24"])
            try namespace.waitForLink("v0", carrier: true)
            let queue = DispatchQueue(label: "immediate-status")
            let manager = ReachabilityManager(monitor: try namespace.monitor("10.41.0.7"), queue: queue)
            let delivered = Mutex<[ReachabilityStatus]>([])
            let first = expectation(description: "first block")
            manager.setReachabilityStatusChangeBlock { status in
                delivered.withLock { $0.append(status) }
                first.fulfill()
            }
            XCTAssertEqual(manager.status, .unknown)

            // When
            manager.startMonitoring()

            // Then: the status is known at once, and the block follows with it, once
            XCTAssertEqual(manager.status, .reachableViaWiFi)
            wait(for: [first], timeout: Self.timeout)
            queue.sync {}  // a second delivery, if any, was queued behind the first
            XCTAssertEqual(delivered.withLock { $0 }, [.reachableViaWiFi])
            manager.stopMonitoring()
        }
    }

    func testStartMonitoring_ofAnUnreachableAddress_isNotReachableAtOnce() throws {
        try withNamespace { namespace in
            let manager = ReachabilityManager(monitor: try namespace.monitor("192.0.2.1"))
            manager.startMonitoring()
            defer { manager.stopMonitoring() }
            XCTAssertEqual(manager.status, .notReachable)
            XCTAssertEqual(manager.localizedNetworkReachabilityStatusString, "Not Reachable")
        }
    }
}
