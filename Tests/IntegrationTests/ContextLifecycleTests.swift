import Foundation
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// semantics.md, guarantee 6: a context's `retain` is called once when it is set, and its
/// `release` exactly once: when the callback is replaced or cleared, or the monitor goes away.
///
/// Each test starts from a `ScheduledMonitor` whose C callback is a `CallbackProbe`'s, past its
/// first callback.
final class ContextLifecycleTests: XCTestCase {
    func testContext_isRetainedOnceWhenSet_andNotAgainByCallbacks() throws {
        let probe = CallbackProbe()
        try withScheduledMonitor(.ipv4, of: \.onLink, callback: .probe(probe), beforeScheduling: { _ in
            XCTAssertEqual(probe.retains, 1, "retain when set")
            XCTAssertEqual(probe.releases, 0)
        }) { given in
            // Callbacks come and go without touching the count
            probe.flags.wait(forCount: 1)
            try given.ns.ip("link", "set", "v0p", "down")
            probe.flags.wait(forCount: 2)
            given.settle()
            given.monitor.unschedule()
            XCTAssertEqual(probe.retains, 1)
            XCTAssertEqual(probe.releases, 0, "unscheduling keeps the callback and its context")
            given.monitor.setCallback(nil, context: nil)
            XCTAssertEqual(probe.releases, 1)
        }
    }

    func testContext_isReleasedOnce_whenCallbackReplaced() throws {
        let first = CallbackProbe()
        let second = CallbackProbe()
        try withScheduledMonitor(.ipv4, of: \.onLink, callback: .probe(first), firstFlags: [.reachable, .isDirect]) { given in
            given.settle()
            // When the callback is replaced (no callback in flight)
            given.monitor.setCallback(second)
            // Then the old context is released at once, the new one retained
            XCTAssertEqual(first.releases, 1, "release of the replaced context")
            XCTAssertEqual(second.retains, 1)
            XCTAssertEqual(second.releases, 0)
            // And changes go to the new callback only
            try given.ns.ip("link", "set", "v0p", "down")
            second.flags.wait(forLast: [.reachable, .connectionRequired, .isDirect])
            given.settle()
            XCTAssertEqual(first.flags.all, [[.reachable, .isDirect]], names(first.flags.all))
            // And when the monitor goes, only the current context is released
            given.releaseMonitor()
            XCTAssertEqual(first.releases, 1, "the replaced context is never released again")
            XCTAssertEqual(second.releases, 1, "the current context is released when the monitor goes")
            XCTAssertEqual(first.retains, 1)
            XCTAssertEqual(second.retains, 1)
        }
    }

    func testContext_isReleasedOnce_whenCallbackCleared() throws {
        let probe = CallbackProbe()
        try withScheduledMonitor(.ipv6, of: \.onLink, callback: .probe(probe)) { given in
            probe.flags.wait(forCount: 1)
            given.settle()
            // When the callback is cleared
            XCTAssertTrue(given.monitor.setCallback(nil, context: nil))
            XCTAssertEqual(probe.releases, 1, "release when cleared")
            // Then no more callbacks, and nothing more is released when the monitor goes
            try given.ns.ip("link", "set", "v0p", "down")
            XCTAssertEqual(try given.ns.monitor(given.plan.onLink).flags(), [.reachable, .connectionRequired, .isDirect])
            given.settle()
            XCTAssertEqual(probe.flags.count, 1, "callbacks after clearing: \(names(probe.flags.all))")
            given.releaseMonitor()
            XCTAssertEqual(probe.retains, 1)
            XCTAssertEqual(probe.releases, 1, "released again when the monitor went")
        }
    }

    func testContext_isReleasedOnce_whenMonitorDeallocated() throws {
        let probe = CallbackProbe()
        try withScheduledMonitor(.ipv4, of: \.remote, callback: .probe(probe)) { given in
            weak let weakMonitor = given.monitor
            probe.flags.wait(forCount: 1)
            given.settle()
            // When the last reference goes, still scheduled
            given.releaseMonitor()
            // Then the monitor is gone and the context released once
            try waitUntil("the monitor is deallocated") { weakMonitor == nil }
            XCTAssertEqual(probe.retains, 1)
            XCTAssertEqual(probe.releases, 1)
            // And nothing is delivered or released later
            try given.ns.ip("link", "set", "v0p", "down")
            XCTAssertEqual(try given.ns.monitor(given.plan.remote).flags(), [.reachable, .connectionRequired])
            given.queue.sync {}
            XCTAssertEqual(probe.flags.count, 1)
            XCTAssertEqual(probe.releases, 1)
        }
    }

    func testContext_withoutRetainAndRelease_isPassedThrough() throws {
        // A context with neither retain nor release: info is handed to the callback as is
        let probe = CallbackProbe()
        try withScheduledMonitor(.ipv4, of: \.onLink, callback: .probe(probe, counted: false)) { given in
            probe.flags.wait(forCount: 1)
            given.settle()
            XCTAssertEqual(probe.flags.all, [[.reachable, .isDirect]])
            given.monitor.unschedule()
            given.monitor.setCallback(nil, context: nil)
            XCTAssertEqual(probe.retains, 0)
            XCTAssertEqual(probe.releases, 0)
        }
    }
}
