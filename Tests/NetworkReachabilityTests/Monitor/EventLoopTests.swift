import Dispatch
import Glibc
import XCTest
@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import ReachabilityNetlink
import ReachabilitySystem

/// The engine's loop on a pipe instead of a netlink socket, owned by a test owner.
final class EventLoopTests: XCTestCase {
    private static let timeout: DispatchTimeInterval = .seconds(10)

    /// A post accepted while the thread is busy in a handler, then a `stop` (the namespace
    /// vanished meanwhile): the post still runs. `fetchCurrentPath()` resumes its caller's
    /// continuation in such a post; dropped, the caller would hang for ever.
    func testPostAcceptedBeforeStop_runsWhenTheThreadEnds() throws {
        let pipe = try TestPipe()
        let inHandler = DispatchSemaphore(value: 0)
        let leaveHandler = DispatchSemaphore(value: 0)
        let postRan = DispatchSemaphore(value: 0)
        let owner = TestOwner(pipe: pipe) {
            inHandler.signal()
            _ = leaveHandler.wait(timeout: .now() + Self.timeout)
        }
        let loop = try EventLoop<TestOwner>()
        try loop.start(owner: owner, eventSocket: pipe.reader)
        // When the thread is busy in a handler
        pipe.poke()
        XCTAssertEqual(inHandler.wait(timeout: .now() + Self.timeout), .success, "the handler ran")
        // And work is posted, then the loop is stopped before the thread could take it
        XCTAssertTrue(loop.execute { postRan.signal() }, "a running loop accepts a post")
        loop.stop()
        XCTAssertFalse(loop.execute {}, "a stopping loop refuses posts (the caller runs them another way)")
        leaveHandler.signal()
        // Then the accepted post runs as the thread ends
        XCTAssertEqual(postRan.wait(timeout: .now() + Self.timeout), .success, "the post accepted before stop ran")
    }

    /// A read from another thread waits for the loop's answer; on the loop's own thread it runs
    /// inline; once the loop ended it is refused (nil), never a hang.
    func testSubmitAndWait_answersFromTheLoop_inlineOnIt_nilOnceEnded() throws {
        let pipe = try TestPipe()
        let loop = try EventLoop<TestOwner>()
        try loop.start(owner: TestOwner(pipe: pipe) {}, eventSocket: pipe.reader)
        let onLoop = loop.submitAndWait { loop.inLoop }
        XCTAssertEqual(onLoop, true, "the body ran on the loop's thread")
        XCTAssertFalse(loop.inLoop, "the test's thread is not the loop's")
        let nested = loop.submitAndWait { loop.submitAndWait { 42 } }
        XCTAssertEqual(nested, 42, "a read on the loop's own thread runs inline")
        loop.stop()
        let deadline = DispatchTime.now() + Self.timeout
        while loop.submitAndWait({ 1 }) != nil {
            guard DispatchTime.now() < deadline else { return XCTFail("the ended loop still answers") }
            usleep(1000)
        }
    }

    /// Two loops whose threads each wait for the other's answer at once: each serves its own
    /// posts while it waits, so both answer (a plain wait would deadlock the two threads).
    func testTwoLoopsWaitingOnEachOther_bothAnswer() throws {
        let (firstPipe, secondPipe) = (try TestPipe(), try TestPipe())
        let first = try EventLoop<TestOwner>()
        let second = try EventLoop<TestOwner>()
        try first.start(owner: TestOwner(pipe: firstPipe) {}, eventSocket: firstPipe.reader)
        try second.start(owner: TestOwner(pipe: secondPipe) {}, eventSocket: secondPipe.reader)
        let bothWaiting = DispatchGroup()
        bothWaiting.enter()
        bothWaiting.enter()
        let answers = LockedState<[String]>([])
        let done = DispatchSemaphore(value: 0)
        for (here, there, name) in [(first, second, "first"), (second, first, "second")] {
            here.execute {
                bothWaiting.leave()
                _ = bothWaiting.wait(timeout: .now() + Self.timeout)
                let answer = there.submitAndWait { there.inLoop ? name : "wrong thread" }
                answers.withLock { $0.append(answer ?? "no answer") }
                done.signal()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success, "a loop answered")
        XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success, "both loops answered")
        XCTAssertEqual(answers.withLock { $0.sorted() }, ["first", "second"])
        first.stop()
        second.stop()
    }

    /// A prober's boot clock watched by the loop fires through its handler, and is reachable
    /// (`whileWatched`) only while the loop holds it open: not after `unwatch`, nor once the
    /// thread ended (the namespace vanished), when the loop has closed it and its number may be
    /// another file's.
    func testWatchedBootClock_fires_reachableOnlyWhileWatched() throws {
        let pipe = try TestPipe()
        let loop = try EventLoop<TestOwner>()
        try loop.start(owner: TestOwner(pipe: pipe) {}, eventSocket: pipe.reader)
        let clock = try XCTUnwrap(BootClockTimer.make())
        let fired = DispatchSemaphore(value: 0)
        let token = loop.watch(clock) {
            BootClockTimer.drain(clock)
            fired.signal()
        }
        XCTAssertEqual(loop.whileWatched(token) { BootClockTimer.arm($0, after: .milliseconds(10)) }, true)
        XCTAssertEqual(fired.wait(timeout: .now() + Self.timeout), .success, "the handler ran on expiry")
        loop.unwatch(token)
        XCTAssertNil(loop.whileWatched(token) { _ in true }, "unwatched: the loop closes it")

        let kept = loop.watch(try XCTUnwrap(BootClockTimer.make())) {}
        XCTAssertEqual(loop.whileWatched(kept) { _ in true }, true)
        loop.stop()
        let deadline = DispatchTime.now() + Self.timeout
        while loop.whileWatched(kept, { _ in true }) != nil {
            guard DispatchTime.now() < deadline else { return XCTFail("still reachable after the thread ended") }
            usleep(1000)
        }
    }
}

/// A pipe standing in for the event socket; its read end closes when the loop lets the owner go.
private final class TestPipe: Sendable {
    let reader: Int32
    let writer: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw XCTSkip("no pipe: errno \(errno)") }
        (reader, writer) = (ends[0], ends[1])
    }

    func poke() {
        var byte: UInt8 = 1
        _ = write(writer, &byte, 1)
    }

    deinit {
        close(reader)
        close(writer)
    }
}

/// Reads the pipe's byte and runs `readable` when the loop says it is readable.
private final class TestOwner: EventLoopOwner {
    let pipe: TestPipe
    let readable: () -> Void

    init(pipe: TestPipe, readable: @escaping () -> Void) {
        self.pipe = pipe
        self.readable = readable
    }

    func eventSocketReadable() {
        var byte: UInt8 = 0
        _ = read(pipe.reader, &byte, 1)
        readable()
    }

    func receive(_ message: Never) {}
    func endTurn() {}
}
