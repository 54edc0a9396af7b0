import Dispatch
import NetworkReachabilityTesting
import ReachabilityCompat
import XCTest

// The NWPathMonitor example of the DocC article TestingWithAFake.md, word for word, so that the
// documentation compiles and passes: code written against Apple's `NWPathMonitor`, driven by a
// `FakePathMonitor` with no kernel, no namespace and no root.

/// The code under test, as an app writes it for Apple's platforms: "offline" exactly when the
/// path is unsatisfied.
final class OfflineBanner: Sendable {
    private let monitor: NWPathMonitor
    private let onChange: @Sendable (_ isOffline: Bool) -> Void

    init(monitor: NWPathMonitor = NWPathMonitor(), onChange: @escaping @Sendable (_ isOffline: Bool) -> Void) {
        self.monitor = monitor
        self.onChange = onChange
    }

    func start() {
        monitor.pathUpdateHandler = { [onChange] path in
            onChange(path.status == .unsatisfied)
        }
        monitor.start(queue: DispatchQueue(label: "OfflineBanner"))
    }

    func stop() {
        monitor.cancel()
    }
}

final class OfflineBannerTests: XCTestCase {
    func testBanner_showsOfflineWhileTheCableIsOut() async {
        let fake = FakePathMonitor(path: .online())
        let (changes, continuation) = AsyncStream.makeStream(of: Bool.self)
        let banner = OfflineBanner(monitor: NWPathMonitor(fake)) { continuation.yield($0) }
        banner.start()
        var seen = changes.makeAsyncIterator()
        let first = await seen.next()

        fake.send(.unplugged())
        let second = await seen.next()
        fake.send(.online())
        let third = await seen.next()

        XCTAssertEqual([first, second, third], [false, true, false])
        banner.stop()
    }
}

/// `NWPathMonitor(_:)` over a fake: Apple's members follow the fake's paths.
final class NWPathMonitorOverAFakeTests: XCTestCase {
    func testApplesMembers_followTheFake() {
        // Given
        let fake = FakePathMonitor(path: .offline())
        let monitor = NWPathMonitor(fake)
        XCTAssertTrue(monitor.monitor === fake)
        XCTAssertNil(monitor.pathMonitor, "made over a fake, there is no PathMonitor")
        XCTAssertEqual(monitor.currentPath.status, .unsatisfied)

        // When
        fake.send(.online())

        // Then: Apple's view of the fake's path
        let path = monitor.currentPath
        XCTAssertEqual(path.status, .satisfied)
        XCTAssertEqual(path.unsatisfiedReason, .notAvailable)
        XCTAssertTrue(path.usesInterfaceType(.wiredEthernet))
        XCTAssertEqual(path.availableInterfaces.map(\.name), ["eth0"])
        XCTAssertEqual(path.linkQuality, .good)
        fake.send(.unplugged())
        XCTAssertEqual(monitor.currentPath.status, .unsatisfied)
        XCTAssertFalse(monitor.currentPath.usesInterfaceType(.wiredEthernet), "no interface carries a cable-out path")
        XCTAssertEqual(monitor.currentPath.networkPath.unsatisfiedReason, .noCarrier)
    }

    func testStartAndCancel_reachTheFake_andTheQueueIsApples() {
        let fake = FakePathMonitor(path: .online())
        let monitor = NWPathMonitor(fake)
        let queue = DispatchQueue(label: "NWPathMonitorOverAFakeTests")
        let delivered = expectation(description: "the current path on the queue")
        monitor.pathUpdateHandler = { path in
            dispatchPrecondition(condition: .onQueue(queue))
            if path.status == .satisfied { delivered.fulfill() }
        }
        monitor.start(queue: queue)
        wait(for: [delivered], timeout: 5)
        XCTAssertTrue(monitor.queue === queue)
        XCTAssertEqual(fake.startCount, 1)
        monitor.cancel()
        XCTAssertEqual(fake.cancelCount, 1)
        XCTAssertFalse(fake.isStarted)
    }

    func testForAwait_overAnNWPathMonitor_followsTheFake_untilCancel() async {
        let fake = FakePathMonitor(path: .online())
        let monitor = NWPathMonitor(fake)
        var paths = monitor.makeAsyncIterator()
        let first = await paths.next()
        fake.send(.offline(.prohibitedRoute))
        let second = await paths.next()
        monitor.cancel()
        let end = await paths.next()

        XCTAssertEqual(first?.status, .satisfied)
        XCTAssertEqual(second?.status, .unsatisfied)
        XCTAssertEqual(second?.networkPath.unsatisfiedReason, .prohibitedRoute)
        XCTAssertNil(end, "cancel() ends the iteration")
    }
}
