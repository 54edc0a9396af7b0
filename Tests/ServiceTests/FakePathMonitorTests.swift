import Dispatch
import NetworkReachability
import NetworkReachabilityTesting
import Synchronization
import XCTest

/// The fake behaves as a `PathMonitor` does on its NWPathMonitor and SCNetworkReachability faces.
final class FakePathMonitorTests: XCTestCase {
    private static let timeout: TimeInterval = 10

    func testStart_deliversTheCurrentPathThenEachSend_toThePathAndFlagsHandlers_inOrder() async {
        // Given: a started fake with both handlers
        let monitor = FakePathMonitor(path: .offline())
        let queue = DispatchQueue(label: "fake-test")
        let statuses = Mutex<[NetworkPath.Status]>([])
        let flags = Mutex<[ReachabilityFlags]>([])
        let done = expectation(description: "three flags")
        monitor.pathUpdateHandler = { path in statuses.withLock { $0.append(path.status) } }
        monitor.setCallback { value in
            if flags.withLock({ $0.append(value); return $0.count }) == 3 { done.fulfill() }
        }
        monitor.start(queue: queue)

        // When: the test drives it
        monitor.send(flags: [.reachable, .connectionRequired])
        monitor.send(flags: [.reachable, .isWWAN])
        await fulfillment(of: [done], timeout: Self.timeout)

        // Then
        XCTAssertEqual(statuses.withLock { $0 }, [.unsatisfied, .unsatisfied, .satisfied])
        XCTAssertEqual(flags.withLock { $0 }, [[], [.reachable, .connectionRequired], [.reachable, .isWWAN]])
        XCTAssertEqual(monitor.currentPath.reachabilityStatus, .reachableViaWWAN)
        XCTAssertEqual(monitor.currentPath.interface, .fakeCellular)
        XCTAssertEqual(try monitor.flags(), [.reachable, .isWWAN])
    }

    func testCancel_endsTheSequences_andStopsTheHandlers() async {
        // Given: a fake iterated by a task
        let monitor = FakePathMonitor(path: .online())
        let paths = monitor.paths(bufferingPolicy: .unbounded)
        let count = Task { await paths.reduce(0) { count, _ in count + 1 } }
        monitor.send(.offline())

        // When: cancelled
        monitor.cancel()

        // Then: the iteration ends after the current path and the send
        let total = await count.value
        XCTAssertEqual(total, 2)
        XCTAssertFalse(monitor.isStarted)
        XCTAssertEqual(monitor.subscriberCount, 0)
    }

    func testFlags_withASetupError_throwsIt() {
        let monitor = FakePathMonitor(setupError: .namespaceNotFound(path: "/run/netns/x"))
        XCTAssertThrowsError(try monitor.flags()) { error in
            XCTAssertEqual(error as? ReachabilityError, .namespaceNotFound(path: "/run/netns/x"))
        }
    }
}
