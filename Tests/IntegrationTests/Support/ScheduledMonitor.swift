import Foundation
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// The given-steps most delivery, kernel-event and context tests share: a fresh namespace with a
/// LAN of `plan`, a monitor of one of its targets whose flags and path callbacks are recorded,
/// scheduled on a callback queue of its own. A test then states only what it changes and what it
/// expects.
final class ScheduledMonitor {
    let ns: Namespace
    let plan: AddressPlan
    /// The fixture's reference; nil after `releaseMonitor()`.
    private(set) var monitor: PathMonitor!
    let flags: Recorder<ReachabilityFlags>
    let paths: Recorder<NetworkPath>
    let queue: DispatchQueue

    fileprivate init(ns: Namespace, plan: AddressPlan, monitor: PathMonitor, flags: Recorder<ReachabilityFlags>,
                     queue: DispatchQueue) {
        self.ns = ns
        self.plan = plan
        self.monitor = monitor
        self.flags = flags
        self.paths = Recorder<NetworkPath>()
        self.queue = queue
    }

    /// Everything the engine queued for the monitor has been delivered.
    func settle() {
        IntegrationTests.settle(monitor, queue)
    }

    /// Drops the fixture's reference, so the monitor goes away unless the test holds one.
    func releaseMonitor() {
        monitor = nil
    }
}

/// What takes a `ScheduledMonitor`'s flags callbacks.
enum FlagsCallback {
    /// A closure that appends to the fixture's own recorder.
    case recorder
    /// `probe`'s C callback into `probe.flags`, with `probe.context()` (retains and releases
    /// counted), or, `counted` false, with a context that has neither retain nor release.
    case probe(CallbackProbe, counted: Bool = true)
}

/// Runs `body` with a `ScheduledMonitor` of `target(plan)`, after `given` set up the namespace
/// beyond the LAN (a default route, say), and unschedules it afterwards (unless released).
///
/// - Parameters:
///   - concurrent: schedule on a concurrent queue instead of a serial one.
///   - callback: what takes the flags callbacks.
///   - beforeScheduling: runs with the monitor once its callbacks are set, before it is scheduled.
///   - firstFlags: waited for before `body` runs (the monitor's first callback), when given.
func withScheduledMonitor(
    _ plan: AddressPlan, of target: (AddressPlan) -> String, concurrent: Bool = false,
    callback: FlagsCallback = .recorder, firstFlags: ReachabilityFlags? = nil, function: String = #function,
    given: (Namespace) throws -> Void = { _ in }, beforeScheduling: (PathMonitor) throws -> Void = { _ in },
    _ body: (ScheduledMonitor) throws -> Void
) throws {
    try withNamespace(function) { ns in
        try ns.addLAN(plan)
        try given(ns)
        let fixture = try makeFixture(ns, plan, target, callback, callbackQueue(function, concurrent: concurrent))
        // Only the fixture holds the monitor, so a test can let it go (`releaseMonitor`).
        defer { fixture.monitor?.unschedule() }
        try beforeScheduling(fixture.monitor)
        XCTAssertTrue(fixture.monitor.setDispatchQueue(fixture.queue))
        if let firstFlags { fixture.flags.wait(forLast: firstFlags) }
        try body(fixture)
    }
}

private func makeFixture(_ ns: Namespace, _ plan: AddressPlan, _ target: (AddressPlan) -> String,
                         _ callback: FlagsCallback, _ queue: DispatchQueue) throws -> ScheduledMonitor {
    let monitor = try ns.monitor(target(plan))
    let flags: Recorder<ReachabilityFlags>
    switch callback {
    case .recorder:
        flags = Recorder<ReachabilityFlags>()
        monitor.record(flags: flags)
    case .probe(let probe, counted: true):
        flags = probe.flags
        monitor.setCallback(probe)
    case .probe(let probe, counted: false):
        flags = probe.flags
        // The info is handed to the callback as is.
        var context = PathMonitor.Context(version: 0, info: Unmanaged.passUnretained(probe).toOpaque(),
                                          retain: nil, release: nil, copyDescription: nil)
        monitor.setCallback(CallbackProbe.callback, context: &context)
    }
    let fixture = ScheduledMonitor(ns: ns, plan: plan, monitor: monitor, flags: flags, queue: queue)
    monitor.record(paths: fixture.paths)
    return fixture
}
