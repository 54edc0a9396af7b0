import NetworkReachability
import NetworkReachabilityTesting
import XCTest

/// `waitUntilSatisfied`: all or any of several monitors, a timeout, cancellation; driven by fakes.
final class PathWaitTests: XCTestCase {
    func testWait_all_returnsOnlyWhenEveryPathIsSatisfied() async throws {
        // Given: one monitor online, one offline
        let first = FakePathMonitor(path: .online())
        let second = FakePathMonitor(path: .offline())
        let wait = Task { try await waitUntilSatisfied([first, second], mode: .all) }
        try await waitForSubscribers(first, second)

        // When: the second comes up
        second.send(.online(via: .fakeCellular))

        // Then: the wait returns both paths, in order
        let paths = try await wait.value
        XCTAssertEqual(paths?.map(\.interface?.name), ["eth0", "wwan0"])
        XCTAssertEqual(first.subscriberCount + second.subscriberCount, 0, "the wait left a subscription behind")
    }

    func testWait_any_returnsWhenOnePathIsSatisfied() async throws {
        let first = FakePathMonitor(path: .offline())
        let second = FakePathMonitor(path: .offline())
        let wait = Task { try await waitUntilSatisfied([first, second], mode: .any) }
        try await waitForSubscribers(first, second)

        second.send(.online())

        let paths = try await wait.value
        XCTAssertEqual(paths?.map(\.status), [.unsatisfied, .satisfied])
    }

    func testWait_whenAlreadySatisfied_returnsAtOnce() async throws {
        let path = try await FakePathMonitor(path: .online()).waitUntilSatisfied(timeout: .seconds(60))
        XCTAssertEqual(path?.status, .satisfied)
    }

    func testWait_whenTheTimeoutPassesFirst_returnsNil() async throws {
        let monitor = FakePathMonitor(path: .offline())
        let path = try await monitor.waitUntilSatisfied(timeout: .milliseconds(50))
        XCTAssertNil(path)
        XCTAssertEqual(monitor.subscriberCount, 0)
    }

    func testWait_whenCancelled_throwsCancellationError() async throws {
        let monitor = FakePathMonitor(path: .offline())
        let wait = Task { try await monitor.waitUntilSatisfied() }
        try await waitForSubscribers(monitor)

        wait.cancel()

        do {
            _ = try await wait.value
            XCTFail("the wait returned although it was cancelled")
        } catch is CancellationError {
            XCTAssertEqual(monitor.subscriberCount, 0)
        }
    }

    func testWait_withoutATimeout_returnsTheSatisfiedPath_notAnOptional() async throws {
        // Given: an offline monitor waited on without a timeout
        let monitor = FakePathMonitor(path: .offline())
        let wait = Task { try await monitor.waitUntilSatisfied() }
        try await waitForSubscribers(monitor)

        // When: it comes up
        monitor.send(.online())

        // Then: the path itself, no nil to handle
        let path: NetworkPath = try await wait.value
        XCTAssertEqual(path.status, .satisfied)
        XCTAssertEqual(monitor.subscriberCount, 0)
    }

    func testWait_withACondition_waitsForIt() async throws {
        let monitor = FakePathMonitor(path: .online())
        let wait = Task { try await monitor.waitUntilSatisfied { $0.usesInterfaceType(.cellular) } }
        try await waitForSubscribers(monitor)

        monitor.send(.online(via: .fakeCellular))

        let path = try await wait.value
        XCTAssertEqual(path?.interface, .fakeCellular)
    }

    func testWait_forNoMonitors_returnsAtOnce() async throws {
        let paths = try await waitUntilSatisfied([], mode: .any)
        XCTAssertEqual(paths, [])
    }

    /// Waits until the wait has subscribed to each monitor, so a `send` is not lost before it.
    private func waitForSubscribers(_ monitors: FakePathMonitor..., file: StaticString = #filePath, line: UInt = #line) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while monitors.contains(where: { $0.subscriberCount == 0 }) {
            guard ContinuousClock.now < deadline else { return XCTFail("the wait never subscribed", file: file, line: line) }
            await Task.yield()
        }
    }
}
