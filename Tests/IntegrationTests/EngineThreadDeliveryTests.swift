import Foundation
@testable import NetworkReachabilityCore
@testable import ReachabilityDelivery
import ReachabilityModel
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `scheduleOnEngineThread()`: the callbacks of a kernel change run on the engine's own thread,
/// with every delivery guarantee a queue has, and a callback there may call back into the library.
final class EngineThreadDeliveryTests: XCTestCase {
    /// One callback as the test saw it: the flags, and whether it ran on a library loop's thread.
    private struct Seen: Sendable, Equatable {
        var flags: ReachabilityFlags
        var onLoopThread: Bool
        var thread: UInt
    }

    private func recordSeen(_ monitor: PathMonitor, into seen: Recorder<Seen>) {
        monitor.setCallback { flags in
            seen.append(Seen(flags: flags, onLoopThread: EngineThreadOutbox.current != nil, thread: UInt(pthread_self())))
        }
    }

    func testKernelChanges_runOnTheEngineThread_once_andInOrder() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.onLink)
            let seen = Recorder<Seen>()
            recordSeen(monitor, into: seen)
            XCTAssertTrue(monitor.scheduleOnEngineThread())
            seen.wait(forCount: 1)
            // When the link goes down and comes back
            try ns.ip("link", "set", "v0", "down")
            seen.wait(until: "not reachable") { $0.last?.flags == [] }
            try ns.ip("link", "set", "v0", "up")
            seen.wait(until: "reachable again") { $0.count > 2 && $0.last?.flags == [.reachable, .isDirect] }
            // Then the first state, then each change once, in order. A link set up may be seen
            // without its carrier first (the kernel's linkwatch reports the carrier a moment
            // later): that state is the kernel's truth for that moment, told once if at all.
            let all = seen.all
            let upWithoutCarrier: ReachabilityFlags = [.reachable, .connectionRequired, .isDirect]
            let told = all.map(\.flags).filter { $0 != upWithoutCarrier || all.count == 3 }
            XCTAssertEqual(told, [[.reachable, .isDirect], [], [.reachable, .isDirect]], names(all.map(\.flags)))
            XCTAssertLessThanOrEqual(all.count, 4, names(all.map(\.flags)))
            if all.count == 4 { XCTAssertEqual(all[2].flags, upWithoutCarrier, names(all.map(\.flags))) }
            // The first state was made on the engine's loop too (the schedule posts to it), so
            // every callback ran on the engine's thread, the same one each time.
            XCTAssertTrue(all.allSatisfy(\.onLoopThread), "\(all)")
            XCTAssertEqual(Set(all.map(\.thread)).count, 1, "one engine thread: \(all)")
            XCTAssertNotEqual(all.last?.thread, UInt(pthread_self()))
            monitor.unschedule()
        }
    }

    func testACallback_mayReadScheduleAndCancel_fromTheEngineThread() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.onLink)
            let other = try ns.monitor(plan.gateway)
            let otherFlags = Recorder<ReachabilityFlags>()
            other.record(flags: otherFlags)
            let reads = Recorder<String>()
            monitor.setCallback { [weak monitor] flags in
                guard let monitor, flags == [], EngineThreadOutbox.current != nil else { return }
                // On the engine's thread: reads, another monitor scheduled, itself cancelled.
                let path = monitor.currentPath
                let read = (try? monitor.flags()) ?? [.connectionRequired]
                other.scheduleOnEngineThread()
                monitor.cancel()
                reads.append("\(path.status) \(names(read))")
            }
            monitor.scheduleOnEngineThread()
            try ns.ip("link", "set", "v0", "down")
            // Then nothing deadlocks: the callback finished, and the other monitor got its first state
            reads.wait(forCount: 1)
            XCTAssertEqual(reads.all, ["unsatisfied []"])
            otherFlags.wait(forCount: 1)
            XCTAssertEqual(otherFlags.all.first, [])
            other.unschedule()
        }
    }

    func testUnschedule_waitsForACallbackInFlight_andNoneStartsAfter() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.onLink)
            let entered = Recorder<ReachabilityFlags>()
            let log = Recorder<String>()
            let release = DispatchSemaphore(value: 0)
            monitor.setCallback { flags in
                entered.append(flags)
                guard flags == [] else { return }
                release.wait()  // holds the engine's thread: the test's own choice
                log.append("callback returned")
            }
            monitor.scheduleOnEngineThread()
            entered.wait(forCount: 1)
            try ns.ip("link", "set", "v0", "down")
            entered.wait(forLast: [])
            // When unscheduled from another thread while that callback runs
            Thread.detachNewThread {
                log.append("unschedule called")
                monitor.unschedule()
                log.append("unschedule returned")
            }
            log.wait(forCount: 1)
            release.signal()
            // Then unschedule returns only after the callback did
            log.wait(forCount: 3)
            XCTAssertEqual(log.all, ["unschedule called", "callback returned", "unschedule returned"])
            // And no callback starts after it returned
            try ns.ip("link", "set", "v0", "up")
            let witness = try ns.witness(plan.onLink, on: callbackQueue())
            witness.flags.wait(forLast: [.reachable, .isDirect])
            settle(witness.monitor, callbackQueue())
            XCTAssertEqual(entered.all, [[.reachable, .isDirect], []])
            witness.monitor.unschedule()
        }
    }
}
