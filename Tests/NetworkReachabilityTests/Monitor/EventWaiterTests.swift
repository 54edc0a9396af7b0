import Dispatch
import Glibc
import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// The engine's wait loop on a pipe instead of a netlink socket.
final class EventWaiterTests: XCTestCase {
    private static let timeout: DispatchTimeInterval = .seconds(10)

    /// A post accepted while the thread is busy in a handler, then a `stop` (the namespace
    /// vanished meanwhile): the post still runs. `fetchCurrentPath()` resumes its caller's
    /// continuation in such a post; dropped, the caller would hang for ever.
    func testPostAcceptedBeforeStop_runsWhenTheThreadEnds() throws {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[1]) }
        let queue = DispatchQueue(label: "event-waiter-test")
        let inHandler = DispatchSemaphore(value: 0)
        let leaveHandler = DispatchSemaphore(value: 0)
        let postRan = DispatchSemaphore(value: 0)
        let keepAlive = PipeEnd(ends[0])
        let waiter = try EventWaiter(fileDescriptor: ends[0], queue: queue, keepAlive: keepAlive,
                                     readable: {
                                         var byte: UInt8 = 0
                                         _ = read(keepAlive.descriptor, &byte, 1)
                                         inHandler.signal()
                                         _ = leaveHandler.wait(timeout: .now() + Self.timeout)
                                     })
        // When the thread is busy in a handler on the queue
        var byte: UInt8 = 1
        XCTAssertEqual(write(ends[1], &byte, 1), 1)
        XCTAssertEqual(inHandler.wait(timeout: .now() + Self.timeout), .success, "the handler ran")
        // And work is posted, then the waiter is stopped before the thread could take it
        XCTAssertTrue(waiter.post { postRan.signal() }, "a running waiter accepts a post")
        waiter.stop()
        XCTAssertFalse(waiter.post {}, "a stopping waiter refuses posts (the caller runs them another way)")
        leaveHandler.signal()
        // Then the accepted post runs as the thread ends
        XCTAssertEqual(postRan.wait(timeout: .now() + Self.timeout), .success, "the post accepted before stop ran")
    }

    /// A prober's boot clock watched by the loop fires through its handler, and is reachable
    /// (`whileWatched`) only while the loop holds it open: not after `unwatch`, nor once the
    /// thread ended (the namespace vanished), when the loop has closed it and its number may be
    /// another file's.
    func testWatchedBootClock_fires_reachableOnlyWhileWatched() throws {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[1]) }
        let waiter = try EventWaiter(fileDescriptor: ends[0], queue: DispatchQueue(label: "event-waiter-test"),
                                     keepAlive: PipeEnd(ends[0]), readable: {})
        let clock = try XCTUnwrap(BootClockTimer.make())
        let fired = DispatchSemaphore(value: 0)
        let token = waiter.watch(clock) {
            BootClockTimer.drain(clock)
            fired.signal()
        }
        XCTAssertEqual(waiter.whileWatched(token) { BootClockTimer.arm($0, after: .milliseconds(10)) }, true)
        XCTAssertEqual(fired.wait(timeout: .now() + Self.timeout), .success, "the handler ran on expiry")
        waiter.unwatch(token)
        XCTAssertNil(waiter.whileWatched(token) { _ in true }, "unwatched: the loop closes it")

        let kept = waiter.watch(try XCTUnwrap(BootClockTimer.make())) {}
        XCTAssertEqual(waiter.whileWatched(kept) { _ in true }, true)
        waiter.stop()
        let deadline = DispatchTime.now() + Self.timeout
        while waiter.whileWatched(kept, { _ in true }) != nil {
            guard DispatchTime.now() < deadline else { return XCTFail("still reachable after the thread ended") }
            usleep(1000)
        }
    }
}

/// The read end of the test's pipe, closed when the waiter's thread lets it go.
private final class PipeEnd: Sendable {
    let descriptor: Int32
    init(_ descriptor: Int32) { self.descriptor = descriptor }
    deinit { close(descriptor) }
}
