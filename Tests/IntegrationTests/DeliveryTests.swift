import Foundation
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Synchronization
import XCTest

/// semantics.md, "Guarantees of delivery".
final class DeliveryTests: XCTestCase {
    // MARK: 1. The first callback carries the current state

    func testFirstCallback_isDelivered_whenNotReachable() throws {
        try withNamespace { ns in
            // Given targets that are not reachable: an address without a route, the zero address
            // without a default route, and the general path (a "not reachable" first event equals a
            // default value, which is why it gets swallowed)
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let address = try ns.monitor(plan.foreign)
            let zero = try ns.monitor(plan.zero)
            let general = try ns.generalMonitor()
            let probe = CallbackProbe()
            address.setCallback(probe)
            let zeroFlags = Recorder<ReachabilityFlags>()
            zero.record(flags: zeroFlags)
            let generalPaths = Recorder<NetworkPath>()
            general.record(paths: generalPaths)
            let queue = callbackQueue()
            // When scheduled
            XCTAssertTrue(address.setDispatchQueue(queue))
            XCTAssertTrue(zero.setDispatchQueue(queue))
            general.start(queue: queue)
            // Then each gets one first callback saying "not reachable"
            probe.flags.wait(forCount: 1)
            zeroFlags.wait(forCount: 1)
            generalPaths.wait(forCount: 1)
            settle(address, queue)
            XCTAssertEqual(probe.flags.all, [[]], "C callback: \(names(probe.flags.all))")
            XCTAssertEqual(zeroFlags.all, [[]], "closure callback: \(names(zeroFlags.all))")
            XCTAssertEqual(generalPaths.all.map(\.status), [.unsatisfied], "pathUpdateHandler: \(generalPaths.all)")
            XCTAssertEqual(generalPaths.all.first?.unsatisfiedReason, .noRoute)
            address.unschedule()
            zero.unschedule()
            general.cancel()
        }
    }

    func testFirstCallback_isDelivered_whenReachableAndNothingChanged() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv6
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.onLink)
            XCTAssertEqual(try monitor.flags(), [.reachable, .isDirect], "flags() is right before scheduling")
            let probe = CallbackProbe()
            monitor.setCallback(probe)
            let queue = callbackQueue()
            monitor.setDispatchQueue(queue)
            probe.flags.wait(forCount: 1)
            settle(monitor, queue)
            XCTAssertEqual(probe.flags.all, [[.reachable, .isDirect]], names(probe.flags.all))
            monitor.unschedule()
        }
    }

    // MARK: 2. Never the same flags twice in a row

    func testSameFlags_areNeverDeliveredTwiceInARow() throws {
        // Given a scheduled monitor of an on-link address
        try withScheduledMonitor(.ipv4, of: \.onLink, firstFlags: [.reachable, .isDirect]) { given in
            let (ns, plan, flags) = (given.ns, given.plan, given.flags)
            let before = given.monitor.engine!.currentCounters.reevaluations
            // When the kernel changes in ways that leave the target's flags alone (the engine re-evaluates)
            try ns.addAddress("10.9.0.3/24", to: "v0")
            try ns.ip("route", "add", plan.net(30), "via", plan.gateway, "dev", "v0")
            try ns.addVeth("v5", addresses: ["10.59.0.2/24"])
            try waitUntil("the engine re-evaluated after the changes") {
                given.monitor.engine!.currentCounters.reevaluations > before
            }
            // And then in one way that changes them
            try ns.ip("link", "set", "v0p", "down")
            flags.wait(forLast: [.reachable, .connectionRequired, .isDirect])
            given.settle()
            // Then the flags callback ran once per distinct state, and no path came twice in a row
            XCTAssertEqual(flags.all, [[.reachable, .isDirect], [.reachable, .connectionRequired, .isDirect]], names(flags.all))
            XCTAssertNil(firstRepeat(in: given.paths.all), "the same path twice in a row: \(given.paths.all)")
        }
    }

    // MARK: 3. Order

    func testConcurrentQueue_neverDeliversAnOlderStateAfterANewerOne() throws {
        // Given a monitor scheduled on a concurrent queue
        try withScheduledMonitor(.ipv4, of: \.onLink, concurrent: true) { given in
            let (ns, flags) = (given.ns, given.flags)
            flags.wait(forCount: 1)
            // When the carrier flaps quickly and ends down
            for _ in 0..<10 {
                try ns.ip("link", "set", "v0p", "down")
                try ns.ip("link", "set", "v0p", "up")
            }
            try ns.ip("link", "set", "v0p", "down")
            try ns.waitForLink("v0", carrier: false)
            let final: ReachabilityFlags = [.reachable, .connectionRequired, .isDirect]
            flags.wait(forLast: final)
            // A fresh evaluation drains what the kernel sent; then everything queued has run
            XCTAssertEqual(try ns.monitor(given.plan.onLink).flags(), final)
            given.settle()
            // Then the last state delivered is the newest, and no state repeats (which an older
            // state overtaking a newer one would cause, the states alternating)
            let seen = flags.all
            XCTAssertEqual(seen.first, [.reachable, .isDirect], names(seen))
            XCTAssertEqual(seen.last, final, "an older state arrived last: \(names(seen))")
            XCTAssertNil(firstRepeat(in: seen), "same flags twice in a row: \(names(seen))")
        }
    }

    // MARK: 5. Unschedule, reschedule, release

    private enum StopStyle { case unschedule, setDispatchQueueNil, cancel }

    func testUnschedule_noCallbackAfterItReturns() throws { try stopped(.unschedule) }
    func testSetDispatchQueueNil_noCallbackAfterItReturns() throws { try stopped(.setDispatchQueueNil) }
    func testCancel_noPathAfterItReturns() throws { try stopped(.cancel) }

    private func stopped(_ style: StopStyle, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a scheduled monitor that got its first callback, and a witness on the same queue
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.onLink)
            let flags = Recorder<ReachabilityFlags>()
            let paths = Recorder<NetworkPath>()
            monitor.record(flags: flags, paths: paths)
            let queue = callbackQueue()
            monitor.setDispatchQueue(queue)
            flags.wait(forCount: 1)
            paths.wait(forCount: 1)
            let (witness, witnessFlags) = try ns.witness(plan.onLink, on: queue)
            // When it is stopped, then the kernel changes twice
            switch style {
            case .unschedule: monitor.unschedule()
            case .setDispatchQueueNil: XCTAssertTrue(monitor.setDispatchQueue(nil))
            case .cancel: monitor.cancel()
            }
            let (flagsAtStop, pathsAtStop) = (flags.count, paths.count)
            try ns.ip("link", "set", "v0p", "down")
            witnessFlags.wait(forLast: [.reachable, .connectionRequired, .isDirect])
            try ns.ip("link", "set", "v0p", "up")
            witnessFlags.wait(forLast: [.reachable, .isDirect])
            settle(witness, queue)
            // Then the stopped monitor heard nothing
            XCTAssertEqual(flags.count, flagsAtStop, "callbacks after stopping: \(names(flags.all))")
            XCTAssertEqual(paths.count, pathsAtStop, "paths after stopping: \(paths.all)")
            witness.unschedule()
        }
    }

    func testUnschedule_whileCallbackInFlight_noCallbackStartsAfterItReturns() throws {
        try withNamespace { ns in
            // Given a monitor whose first callback is held in flight on a serial queue
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.onLink)
            let log = Recorder<String>()
            let entered = DispatchSemaphore(value: 0)
            let proceed = DispatchSemaphore(value: 0)
            let starts = Atomic<Int>(0)
            monitor.setCallback { flags in
                log.append("start \(names(flags))")
                if starts.add(1, ordering: .relaxed).newValue == 1 {
                    entered.signal()
                    _ = proceed.wait(timeout: .now() + integrationTimeout)
                }
                log.append("end")
            }
            let queue = callbackQueue()
            monitor.setDispatchQueue(queue)
            XCTAssertEqual(entered.wait(timeout: .now() + integrationTimeout), .success, "the first callback started")
            // And a change whose callback is queued behind it (a witness proves the engine saw it)
            let witness = try ns.monitor(plan.onLink)
            let witnessFlags = Recorder<ReachabilityFlags>()
            witness.record(flags: witnessFlags)
            let witnessQueue = callbackQueue("witness")
            witness.setDispatchQueue(witnessQueue)
            try ns.ip("link", "set", "v0p", "down")
            witnessFlags.wait(forLast: [.reachable, .connectionRequired, .isDirect])
            _ = monitor.engine!.currentCounters
            // When another thread unschedules while the callback is in flight, and then the callback returns
            let unscheduled = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                log.append("unschedule called")
                monitor.unschedule()
                log.append("unschedule returned")
                unscheduled.signal()
            }
            log.wait(until: "unschedule was called") { $0.contains("unschedule called") }
            proceed.signal()
            XCTAssertEqual(unscheduled.wait(timeout: .now() + integrationTimeout), .success, "unschedule returned")
            // And the kernel changes again
            try ns.ip("link", "set", "v0p", "up")
            witnessFlags.wait(forLast: [.reachable, .isDirect])
            settle(witness, queue)
            // Then no callback started after unschedule returned
            let events = log.all
            let returned = try XCTUnwrap(events.firstIndex(of: "unschedule returned"))
            XCTAssertFalse(events[returned...].contains { $0.hasPrefix("start") }, "a callback started after unschedule returned: \(events)")
            witness.unschedule()
        }
    }

    func testReschedule_afterUnschedule_deliversCurrentStateThenChanges() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.onLink)
            let probe = CallbackProbe()
            monitor.setCallback(probe)
            let queue = callbackQueue()
            monitor.setDispatchQueue(queue)
            probe.flags.wait(forCount: 1)
            // When unscheduled and scheduled again with nothing changed: a first callback again
            monitor.unschedule()
            monitor.setDispatchQueue(queue)
            probe.flags.wait(forCount: 2)
            // When unscheduled, the carrier drops, and it is scheduled again: the new state
            monitor.unschedule()
            try ns.ip("link", "set", "v0p", "down")
            try ns.waitForLink("v0", carrier: false)
            monitor.setDispatchQueue(queue)
            probe.flags.wait(forCount: 3)
            // And it goes on following the kernel
            try ns.ip("link", "set", "v0p", "up")
            probe.flags.wait(forCount: 4)
            settle(monitor, queue)
            XCTAssertEqual(probe.flags.all, [[.reachable, .isDirect], [.reachable, .isDirect],
                                             [.reachable, .connectionRequired, .isDirect], [.reachable, .isDirect]],
                           names(probe.flags.all))
            monitor.unschedule()
        }
    }

    func testReleasingMonitor_whileCallbackInFlight_isSafe_andReleasesContextAfterwards() throws {
        try withNamespace { ns in
            // Given a scheduled monitor whose first callback is held in flight
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            var monitor: PathMonitor? = try ns.monitor(plan.onLink)
            weak let weakMonitor = monitor
            let probe = CallbackProbe(holdFirstCallback: true)
            monitor?.setCallback(probe)
            let queue = callbackQueue()
            monitor?.setDispatchQueue(queue)
            XCTAssertEqual(probe.entered.wait(timeout: .now() + integrationTimeout), .success, "the first callback started")
            // When the test drops its reference (without unscheduling) and lets the callback go on
            monitor = nil
            probe.proceed.signal()
            // Then the callback still saw a live monitor and an unreleased context, and afterwards the
            // monitor goes away and the context is released exactly once
            try waitUntil("the monitor is deallocated") { weakMonitor == nil }
            try waitUntil("the context is released") { probe.releases > 0 }
            queue.sync {}
            XCTAssertEqual(probe.inFlight?.releases, 0, "the context was released while its callback ran")
            XCTAssertEqual(probe.inFlight?.target, plan.onLink, "the callback's monitor pointer")
            XCTAssertEqual(probe.flags.all, [[.reachable, .isDirect]])
            XCTAssertEqual(probe.retains, 1)
            XCTAssertEqual(probe.releases, 1)
        }
    }
}
