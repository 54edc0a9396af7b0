import Dispatch
import NetworkReachability
import NetworkReachabilityService
import NetworkReachabilityTesting
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import XCTest

/// `PathMonitorService` driven by a `FakePathMonitor`: the paths a test sends reach `onPath` in
/// order, and the monitor is cancelled when the service stops. No kernel, no root.
final class PathMonitorServiceFakeTests: XCTestCase {
    private static let timeout: TimeInterval = 10

    func testRun_withAFakeMonitor_deliversOfflineThenOnline_andCancelsItOnShutdown() async throws {
        // Given: a service over a fake that starts offline
        let monitor = FakePathMonitor(path: .offline())
        let (seen, seenContinuation) = AsyncStream.makeStream(of: NetworkPath.self)
        let service = PathMonitorService(makeMonitor: { monitor }) { path in seenContinuation.yield(path) }

        try await testGracefulShutdown { trigger in
            let run = Task { try await service.run() }
            var paths = seen.makeAsyncIterator()

            // When/Then: the current path comes first, then what the test sends, in order
            let first = await paths.next()
            XCTAssertEqual(first?.status, .unsatisfied)
            monitor.send(.online())
            let second = await paths.next()
            XCTAssertEqual(second?.status, .satisfied)
            XCTAssertEqual(second?.interface?.name, "eth0")
            monitor.send(flags: [])
            let third = await paths.next()
            XCTAssertEqual(third?.unsatisfiedReason, .noRoute)

            trigger.triggerGracefulShutdown()
            try await run.value
        }
        // Then: the service let go of the monitor
        XCTAssertEqual(monitor.cancelCount, 1)
        XCTAssertEqual(monitor.subscriberCount, 0)
    }

    func testRun_whenTheFakeSaysTheNamespaceIsGone_throwsNamespaceNotFound() async {
        let monitor = FakePathMonitor(path: .online(), namespace: .named("gone"))
        let service = PathMonitorService(makeMonitor: { monitor }) { path in
            if path.status == .satisfied { monitor.send(.offline(.namespaceUnavailable)) }
        }
        do {
            try await service.run()
            XCTFail("run() returned although the namespace went away")
        } catch let error as ReachabilityError {
            XCTAssertEqual(error, .namespaceNotFound(path: "/run/netns/gone"))
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }

    func testRun_whenTheFakeHasASetupError_throwsIt() async {
        let monitor = FakePathMonitor(setupError: .namespaceNotFound(path: "/run/netns/missing"))
        let service = PathMonitorService(makeMonitor: { monitor }) { _ in XCTFail("no path expected") }
        do {
            try await service.run()
            XCTFail("run() returned although the monitor cannot watch")
        } catch let error as ReachabilityError {
            XCTAssertEqual(error, .namespaceNotFound(path: "/run/netns/missing"))
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }
}
