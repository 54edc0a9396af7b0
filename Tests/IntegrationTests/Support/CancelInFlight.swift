import Foundation
import NetworkReachability
import XCTest

/// Starts a monitor with `probe` on `lab`'s client, waits until `inFlight` says its probe is under
/// way, cancels it, and checks what a cancel promises (see the overload below).
func assertCancelInFlightLeavesNothing(_ lab: ProbeLab, probe: ConnectivityProbe, inFlight: () -> Bool,
                                       file: StaticString = #filePath, line: UInt = #line) throws {
    try assertCancelInFlightLeavesNothing(monitor: {
        let monitor = try lab.client.generalMonitor()
        monitor.connectivityProbe = probe
        return monitor
    }, inFlight: inFlight, file: file, line: line)
}

/// Starts the monitor `monitor` makes (configured to probe or fetch, not started), waits until
/// `inFlight` says its run is under way, cancels it, and checks what a cancel promises: no
/// callback after `cancel()` returned, and every descriptor the run opened closed (its thread
/// closes them once the cancel wakes its poll). Descriptors are counted before the monitor is
/// made, so its engine's and prober's count too.
func assertCancelInFlightLeavesNothing(monitor make: () throws -> PathMonitor, inFlight: () -> Bool,
                                       file: StaticString = #filePath, line: UInt = #line) throws {
    let descriptorsBefore = openDescriptors()
    do {
        let monitor = try make()
        let watch = ConnectivityWatch(monitor)
        try waitUntil("a run is in flight", file: file, line: line, inFlight)
        monitor.cancel()
        let delivered = watch.paths.count + watch.flags.count
        Thread.sleep(forTimeInterval: 1)  // a window for a callback that must not come
        XCTAssertEqual(watch.paths.count + watch.flags.count, delivered, "no callback after cancel() returned", file: file, line: line)
    }
    try waitUntil("the run's descriptors are closed (\(openDescriptors()) open, \(descriptorsBefore) before)", file: file, line: line) {
        openDescriptors() <= descriptorsBefore
    }
}
