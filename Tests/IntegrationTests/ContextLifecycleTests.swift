import Foundation
@testable import NetworkReachability
import XCTest

/// semantics.md, guarantee 6: a context's `retain` is called once when it is set, and its
/// `release` exactly once: when the callback is replaced or cleared, or the monitor goes away.
final class ContextLifecycleTests: XCTestCase {
    func testContext_isRetainedOnceWhenSet_andNotAgainByCallbacks() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.onLink)
            let probe = CallbackProbe()
            monitor.setCallback(probe)
            XCTAssertEqual(probe.retains, 1, "retain when set")
            XCTAssertEqual(probe.releases, 0)
            // Callbacks come and go without touching the count
            let queue = callbackQueue()
            monitor.setDispatchQueue(queue)
            probe.flags.wait(forCount: 1)
            try ns.ip("link", "set", "v0p", "down")
            probe.flags.wait(forCount: 2)
            settle(monitor, queue)
            monitor.unschedule()
            XCTAssertEqual(probe.retains, 1)
            XCTAssertEqual(probe.releases, 0, "unscheduling keeps the callback and its context")
            monitor.setCallback(nil, context: nil)
            XCTAssertEqual(probe.releases, 1)
        }
    }

    func testContext_isReleasedOnce_whenCallbackReplaced() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            var monitor: PathMonitor? = try ns.monitor(plan.onLink)
            let first = CallbackProbe()
            let second = CallbackProbe()
            monitor?.setCallback(first)
            let queue = callbackQueue()
            monitor?.setDispatchQueue(queue)
            first.flags.wait(forCount: 1)
            settle(monitor!, queue)
            // When the callback is replaced (no callback in flight)
            monitor?.setCallback(second)
            // Then the old context is released at once, the new one retained
            XCTAssertEqual(first.releases, 1, "release of the replaced context")
            XCTAssertEqual(second.retains, 1)
            XCTAssertEqual(second.releases, 0)
            // And changes go to the new callback only
            try ns.ip("link", "set", "v0p", "down")
            second.flags.wait(forLast: [.reachable, .connectionRequired, .isDirect])
            settle(monitor!, queue)
            XCTAssertEqual(first.flags.all, [[.reachable, .isDirect]], names(first.flags.all))
            // And when the monitor goes, only the current context is released
            monitor = nil
            XCTAssertEqual(first.releases, 1, "the replaced context is never released again")
            XCTAssertEqual(second.releases, 1, "the current context is released when the monitor goes")
            XCTAssertEqual(first.retains, 1)
            XCTAssertEqual(second.retains, 1)
        }
    }

    func testContext_isReleasedOnce_whenCallbackCleared() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv6
            try ns.addLAN(plan)
            var monitor: PathMonitor? = try ns.monitor(plan.onLink)
            let probe = CallbackProbe()
            monitor?.setCallback(probe)
            let queue = callbackQueue()
            monitor?.setDispatchQueue(queue)
            probe.flags.wait(forCount: 1)
            settle(monitor!, queue)
            // When the callback is cleared
            XCTAssertTrue(monitor?.setCallback(nil, context: nil) ?? false)
            XCTAssertEqual(probe.releases, 1, "release when cleared")
            // Then no more callbacks, and nothing more is released when the monitor goes
            try ns.ip("link", "set", "v0p", "down")
            XCTAssertEqual(try ns.monitor(plan.onLink).flags(), [.reachable, .connectionRequired, .isDirect])
            settle(monitor!, queue)
            XCTAssertEqual(probe.flags.count, 1, "callbacks after clearing: \(names(probe.flags.all))")
            monitor = nil
            XCTAssertEqual(probe.retains, 1)
            XCTAssertEqual(probe.releases, 1, "released again when the monitor went")
        }
    }

    func testContext_isReleasedOnce_whenMonitorDeallocated() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            var monitor: PathMonitor? = try ns.monitor(plan.remote)
            weak let weakMonitor = monitor
            let probe = CallbackProbe()
            monitor?.setCallback(probe)
            let queue = callbackQueue()
            monitor?.setDispatchQueue(queue)
            probe.flags.wait(forCount: 1)
            settle(monitor!, queue)
            // When the last reference goes, still scheduled
            monitor = nil
            // Then the monitor is gone and the context released once
            try waitUntil("the monitor is deallocated") { weakMonitor == nil }
            XCTAssertEqual(probe.retains, 1)
            XCTAssertEqual(probe.releases, 1)
            // And nothing is delivered or released later
            try ns.ip("link", "set", "v0p", "down")
            XCTAssertEqual(try ns.monitor(plan.remote).flags(), [.reachable, .connectionRequired])
            queue.sync {}
            XCTAssertEqual(probe.flags.count, 1)
            XCTAssertEqual(probe.releases, 1)
        }
    }

    func testContext_withoutRetainAndRelease_isPassedThrough() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.onLink)
            let probe = CallbackProbe()
            // A context with neither retain nor release: info is handed to the callback as is
            var context = PathMonitor.Context(version: 0, info: Unmanaged.passUnretained(probe).toOpaque(),
                                              retain: nil, release: nil, copyDescription: nil)
            monitor.setCallback(CallbackProbe.callback, context: &context)
            let queue = callbackQueue()
            monitor.setDispatchQueue(queue)
            probe.flags.wait(forCount: 1)
            settle(monitor, queue)
            XCTAssertEqual(probe.flags.all, [[.reachable, .isDirect]])
            monitor.unschedule()
            monitor.setCallback(nil, context: nil)
            XCTAssertEqual(probe.retains, 0)
            XCTAssertEqual(probe.releases, 0)
        }
    }
}
