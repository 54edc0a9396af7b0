import Foundation
@testable import NetworkReachability
import XCTest

/// The given-steps most delivery and kernel-event tests share: a fresh namespace with a LAN of
/// `plan`, a monitor of one of its targets recording every flags and path callback, scheduled
/// on a callback queue of its own. A test then states only what it changes and what it expects.
struct ScheduledMonitor {
    let ns: Namespace
    let plan: AddressPlan
    let monitor: PathMonitor
    let flags: Recorder<ReachabilityFlags>
    let paths: Recorder<NetworkPath>
    let queue: DispatchQueue

    /// Everything the engine queued for the monitor has been delivered.
    func settle() {
        IntegrationTests.settle(monitor, queue)
    }
}

/// Runs `body` with a `ScheduledMonitor` of `target(plan)`, after `given` set up the namespace
/// beyond the LAN (a default route, say), and unschedules it afterwards.
///
/// - Parameters:
///   - concurrent: schedule on a concurrent queue instead of a serial one.
///   - firstFlags: waited for before `body` runs (the monitor's first callback), when given.
func withScheduledMonitor(
    _ plan: AddressPlan, of target: (AddressPlan) -> String, concurrent: Bool = false,
    firstFlags: ReachabilityFlags? = nil, function: String = #function,
    given: (Namespace) throws -> Void = { _ in }, _ body: (ScheduledMonitor) throws -> Void
) throws {
    try withNamespace(function) { ns in
        try ns.addLAN(plan)
        try given(ns)
        let monitor = try ns.monitor(target(plan))
        let flags = Recorder<ReachabilityFlags>()
        let paths = Recorder<NetworkPath>()
        monitor.record(flags: flags, paths: paths)
        let queue = callbackQueue(function, concurrent: concurrent)
        XCTAssertTrue(monitor.setDispatchQueue(queue))
        defer { monitor.unschedule() }
        if let firstFlags { flags.wait(forLast: firstFlags) }
        try body(ScheduledMonitor(ns: ns, plan: plan, monitor: monitor, flags: flags, paths: paths, queue: queue))
    }
}
