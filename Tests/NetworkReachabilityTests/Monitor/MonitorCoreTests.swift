import Dispatch
import XCTest
@testable import NetworkReachabilityCore
@testable import ReachabilityDelivery
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// Delivery without a kernel: a `MonitorCore` fed evaluations by hand, as the engine feeds it.
final class MonitorCoreTests: XCTestCase {
    private static let timeout: TimeInterval = 10

    private static func path(_ flags: ReachabilityFlags, gateway: String = "10.0.0.1") -> NetworkPath {
        NetworkPath(status: ReachabilityStatus(flags: flags).isReachable ? .satisfied : .unsatisfied,
                    unsatisfiedReason: ReachabilityStatus(flags: flags).isReachable ? nil : .noRoute, flags: flags,
                    interface: nil, availableInterfaces: [], gateways: [Fixture.ip(gateway)], isExpensive: false,
                    isConstrained: false, supportsIPv4: true, supportsIPv6: false, supportsDNS: true)
    }

    private func makeCore() -> MonitorCore {
        MonitorCore(target: .general(.none), initial: .unsatisfied(.noRoute))
    }

    func testReceive_flagsHandlersDedupeOnFlags_pathHandlersOnThePath() {
        // Given
        let core = makeCore()
        let queue = DispatchQueue(label: "test.delivery")
        let flags = Recorder<ReachabilityFlags>()
        let paths = Recorder<NetworkPath>()
        core.setFlagsHandler { flags.append($0) }
        core.pathHandler = { paths.append($0) }
        core.setQueue(queue)
        // When: the same state twice, then the same flags over another gateway, then new flags
        core.publish(Self.path([.reachable])).deliver()
        core.publish(Self.path([.reachable])).deliver()
        core.publish(Self.path([.reachable], gateway: "10.0.0.254")).deliver()
        core.publish(Self.path([])).deliver()
        queue.sync {}
        // Then
        XCTAssertEqual(flags.values, [[.reachable], []])
        XCTAssertEqual(paths.values, [Self.path([.reachable]), Self.path([.reachable], gateway: "10.0.0.254"), Self.path([])])
        XCTAssertEqual(core.current, Self.path([]))
    }

    func testDispatch_batchesPerQueue_inOrder_andSkipsUnchangedStates() {
        // Given: three monitors on one queue and one on another, each recording into one log
        let shared = DispatchQueue(label: "test.shared")
        let other = DispatchQueue(label: "test.other")
        let log = Recorder<String>()
        let cores = (0..<4).map { _ in makeCore() }
        for (position, core) in cores.enumerated() {
            core.setFlagsHandler { log.append("\(position):\($0.rawValue)") }
            core.setQueue(position == 3 ? other : shared)
        }
        // When: one batch for all, then a second batch in which only two changed, each queued
        // in a loop thread's outbox and sent as the engine sends its batches
        let outbox = EngineThreadOutbox()
        for core in cores { core.publish(Self.path([.reachable])).delivery.map { outbox.queue($0.work, on: $0.queue) } }
        outbox.sendQueued()
        let second = cores.enumerated().compactMap { position, core in
            core.publish(Self.path(position % 2 == 0 ? [] : [.reachable])).delivery
        }
        for delivery in second { outbox.queue(delivery.work, on: delivery.queue) }
        outbox.sendQueued()
        shared.sync {}
        other.sync {}
        // Then: every monitor heard the first state, only the changed ones the second, each queue in order
        XCTAssertEqual(second.count, 2, "unchanged paths make no delivery")
        let onShared = log.values.filter { !$0.hasPrefix("3:") }
        XCTAssertEqual(onShared, ["0:2", "1:2", "2:2", "0:0", "2:0"])
        XCTAssertEqual(log.values.filter { $0.hasPrefix("3:") }, ["3:2"])
    }

    func testReceive_beforeScheduling_onlyUpdatesCurrent() {
        let core = makeCore()
        let queue = DispatchQueue(label: "test.delivery")
        let paths = Recorder<NetworkPath>()
        core.pathHandler = { paths.append($0) }
        core.publish(Self.path([.reachable])).deliver()
        XCTAssertEqual(core.current, Self.path([.reachable]))
        XCTAssertFalse(core.isActive)
        // Scheduling does not replay by itself: the engine's subscribe hands the first state over.
        core.setQueue(queue)
        XCTAssertTrue(core.isActive)
        queue.sync {}
        XCTAssertEqual(paths.values, [])
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        XCTAssertEqual(paths.values, [Self.path([.reachable])], "the first state after scheduling arrives even if unchanged")
    }

    func testUnschedule_dropsDeliveriesAlreadyQueued() {
        // Given: a delivery queued but not yet run
        let core = makeCore()
        let (queue, paths) = core.scheduleRecordingPaths()
        queue.suspend()
        core.publish(Self.path([.reachable])).deliver()
        // When
        core.setQueue(nil)
        queue.resume()
        queue.sync {}
        // Then
        XCTAssertEqual(paths.values, [])
        XCTAssertFalse(core.isActive)
    }

    func testSchedule_again_deliversTheCurrentStateAgain() {
        let core = makeCore()
        let (queue, paths) = core.scheduleRecordingPaths()
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        core.setQueue(nil)
        core.setQueue(queue)
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        XCTAssertEqual(paths.values, [Self.path([.reachable]), Self.path([.reachable])])
    }

    func testUnschedule_fromAnotherThread_waitsForTheRunningCallback() {
        // Given: a callback that runs until the test lets it go
        let core = makeCore()
        let queue = DispatchQueue(label: "test.delivery")
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let events = Recorder<String>()
        core.pathHandler = { _ in
            started.signal()
            proceed.wait()
            events.append("callback returned")
        }
        core.setQueue(queue)
        core.publish(Self.path([.reachable])).deliver()
        XCTAssertEqual(started.wait(timeout: .now() + Self.timeout), .success)
        // When: another thread unschedules while the callback runs
        let unscheduled = expectation(description: "unschedule returned")
        let unscheduling = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            unscheduling.signal()
            core.setQueue(nil)
            events.append("unschedule returned")
            unscheduled.fulfill()
        }
        XCTAssertEqual(unscheduling.wait(timeout: .now() + Self.timeout), .success)
        proceed.signal()
        wait(for: [unscheduled], timeout: Self.timeout)
        // Then
        XCTAssertEqual(events.values, ["callback returned", "unschedule returned"])
    }

    func testUnschedule_fromInsideTheCallback_doesNotWait() {
        let core = makeCore()
        let queue = DispatchQueue(label: "test.delivery")
        let returned = expectation(description: "unschedule inside the callback returned")
        let paths = Recorder<NetworkPath>()
        core.pathHandler = { path in
            paths.append(path)
            core.setQueue(nil)
            returned.fulfill()
        }
        core.setQueue(queue)
        core.publish(Self.path([.reachable])).deliver()
        wait(for: [returned], timeout: Self.timeout)
        core.publish(Self.path([])).deliver()
        queue.sync {}
        XCTAssertEqual(paths.values, [Self.path([.reachable])])
    }

    func testTearDown_stopsEverythingForGood() {
        let core = makeCore()
        let (queue, paths) = core.scheduleRecordingPaths()
        core.tearDown()
        core.setQueue(queue)
        XCTAssertFalse(core.isActive, "a torn-down core cannot be scheduled again")
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        XCTAssertEqual(paths.values, [])
        XCTAssertNil(core.pathHandler)
        let (_, continuation) = AsyncStream.makeStream(of: NetworkPath.self)
        XCTAssertNil(core.addStream(continuation))
    }

    func testStreams_yieldEachDistinctPath_andFinishOnTearDown() async {
        let core = makeCore()
        let (stream, continuation) = AsyncStream.makeStream(of: NetworkPath.self)
        let id = core.addStream(continuation)
        XCTAssertNotNil(id)
        XCTAssertTrue(core.isActive)
        core.publish(Self.path([.reachable])).deliver()
        core.publish(Self.path([.reachable])).deliver()
        core.publish(Self.path([.reachable], gateway: "10.0.0.254")).deliver()
        core.tearDown()
        var received: [NetworkPath] = []
        for await path in stream { received.append(path) }
        XCTAssertEqual(received, [Self.path([.reachable]), Self.path([.reachable], gateway: "10.0.0.254")])
    }

    func testRemoveStream_makesTheCoreInactive() {
        let core = makeCore()
        let (_, continuation) = AsyncStream.makeStream(of: NetworkPath.self)
        let id = core.addStream(continuation)
        XCTAssertTrue(core.isActive)
        core.removeStream(id!)
        XCTAssertFalse(core.isActive)
    }

    func testStoreIfInactive_setsCurrent_butNeverOverWhatTheEngineRecordedSince() {
        let core = makeCore()
        XCTAssertEqual(core.current, .unsatisfied(.noRoute))
        core.storeIfInactive(Self.path([.reachable]))
        XCTAssertEqual(core.current, Self.path([.reachable]))
        // When an unscheduled read evaluated, then the monitor started and the engine recorded a newer path
        let (_, continuation) = AsyncStream.makeStream(of: NetworkPath.self)
        let id = core.addStream(continuation)
        core.publish(Self.path([])).deliver()
        // Then the read's older path does not overwrite it (it would be redelivered after it)
        core.storeIfInactive(Self.path([.reachable]))
        XCTAssertEqual(core.current, Self.path([]))
        core.removeStream(id!)
    }
}
