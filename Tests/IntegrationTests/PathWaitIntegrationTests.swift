import NetworkReachability
import Synchronization
import XCTest

/// `waitUntilSatisfied` and `paths(bufferingPolicy:)` on real monitors, in a namespace of their own.
final class PathWaitIntegrationTests: XCTestCase {
    private static let timeout: TimeInterval = 30

    func testWait_all_onRealMonitors_returnsOnceTheDefaultRouteComes() throws {
        try withNamespace { namespace in
            // Given: 10.40.0.7 on link, 192.0.2.1 without a route
            try namespace.addVeth("v0", addresses: ["10.40.0.1/24"])
            try namespace.waitForLink("v0", carrier: true)
            let onLink = try namespace.monitor("10.40.0.7")
            let remote = try namespace.monitor("192.0.2.1")
            let outcome = Mutex<[NetworkPath]?>(nil)
            let done = expectation(description: "the wait returned")
            let waiting = Task {
                let paths = try await waitUntilSatisfied([onLink, remote], mode: .all, timeout: .seconds(60))
                outcome.withLock { $0 = paths }
                done.fulfill()
            }
            defer { waiting.cancel() }

            // When: a default route appears
            try namespace.ip("route", "add", "default", "via", "10.40.0.2")

            // Then: the wait returns both satisfied paths, the remote one via the gateway
            wait(for: [done], timeout: Self.timeout)
            let paths = try XCTUnwrap(outcome.withLock { $0 }, "the wait timed out")
            XCTAssertEqual(paths.map(\.status), [.satisfied, .satisfied])
            XCTAssertEqual(paths.last?.gateways.map { "\($0)" }, ["10.40.0.2"])
        }
    }

    func testPaths_withBufferingNewestOne_startsWithTheCurrentPath_andEndsOnCancel() throws {
        // Given: loopback in the process's own namespace (read only)
        let monitor = try PathMonitor(address: "127.0.0.1")
        let first = expectation(description: "first path")
        let ended = expectation(description: "sequence ended")
        let statuses = Mutex<[NetworkPath.Status]>([])
        let paths = monitor.paths(bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            for await path in paths {
                statuses.withLock { $0.append(path.status) }
                first.fulfill()
            }
            ended.fulfill()
        }
        defer { task.cancel() }
        wait(for: [first], timeout: Self.timeout)

        // When
        monitor.cancel()

        // Then
        wait(for: [ended], timeout: Self.timeout)
        XCTAssertEqual(statuses.withLock { $0 }, [.satisfied])
    }
}
