import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// Iterating a `PathMonitor` that nothing else holds, as `for await path in NWPathMonitor()` is written.
///
/// Known library bug (reported, not fixed here, found by the unit-test work): the iterator holds the
/// monitor's core and engine but not the monitor, so the temporary monitor of
/// `for await path in try PathMonitor(...)` is released as soon as `makeAsyncIterator()` returns; its
/// `deinit` tears the core down, which finishes the stream, and the loop ends after the first path.
/// Needs no root: it watches 127.0.0.1 in the process's own namespace.
final class PathMonitorSequenceLifetimeTests: XCTestCase {
    private static let timeout: TimeInterval = 10

    func testAsyncSequence_ofATemporaryMonitor_doesNotEndAfterTheFirstPath() throws {
        // Given: the NWPathMonitor idiom, a monitor held by nothing but the loop
        let firstPath = expectation(description: "first path")
        let ended = expectation(description: "the sequence ended on its own")
        ended.isInverted = true
        let task = Task {
            var count = 0
            for await _ in try PathMonitor(address: "127.0.0.1") {
                count += 1
                if count == 1 { firstPath.fulfill() }
            }
            if !Task.isCancelled { ended.fulfill() }
        }
        defer { task.cancel() }
        // When
        wait(for: [firstPath], timeout: Self.timeout)
        // Then: nothing changes on 127.0.0.1, so the loop must still be waiting for a second path
        wait(for: [ended], timeout: 1)
    }

    func testIterator_keepsItsMonitorAlive() throws {
        // Given
        weak var weakMonitor: PathMonitor?
        var iterator: PathMonitor.Iterator
        do {
            let monitor = try PathMonitor(address: "127.0.0.1")
            weakMonitor = monitor
            iterator = monitor.makeAsyncIterator()
        }
        // Then: the monitor lives as long as something iterates it
        XCTAssertNotNil(weakMonitor, "the only iterator of a monitor does not keep it alive")
        withExtendedLifetime(iterator) {}
    }
}
