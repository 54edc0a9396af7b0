import Foundation
import NetworkReachability
import XCTest

/// Starts a monitor with `probe` on `lab`'s client, waits until `inFlight` says its probe is under
/// way, cancels it, and checks what a cancel promises: no callback after `cancel()` returned, and
/// every descriptor the probe opened closed (its thread closes them once the cancel wakes its poll).
func assertCancelInFlightLeavesNothing(_ lab: ProbeLab, probe: ConnectivityProbe, inFlight: () -> Bool,
                                       file: StaticString = #filePath, line: UInt = #line) throws {
    let descriptorsBefore = openDescriptors()
    do {
        let monitor = try lab.client.generalMonitor()
        monitor.connectivityProbe = probe
        let watch = ConnectivityWatch(monitor)
        try waitUntil("a probe is in flight", file: file, line: line, inFlight)
        monitor.cancel()
        let delivered = watch.paths.count
        Thread.sleep(forTimeInterval: 1)  // a window for a callback that must not come
        XCTAssertEqual(watch.paths.count, delivered, "no callback after cancel() returned", file: file, line: line)
    }
    try waitUntil("the probe's descriptors are closed (\(openDescriptors()) open, \(descriptorsBefore) before)", file: file, line: line) {
        openDescriptors() <= descriptorsBefore
    }
}
