@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import XCTest
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// A monitor consumed only through `paths()` counts as scheduled (the DocC article "A service":
/// "Iterating counts as scheduled", as a `PathMonitorService` consumes it): reading its path costs no route lookup,
/// where an unscheduled monitor asks the kernel on every read.
final class IteratedMonitorReadTests: XCTestCase {
    private static let reads = 20

    func testReadingAnIteratedMonitor_asksTheKernelNothing_unlikeAnUnscheduledOne() throws {
        try withNamespace { ns in
            // Given: a monitor of an address on a LAN, not scheduled
            try ns.addLAN(.ipv4, linkLocal: false)
            let monitor = try ns.monitor(AddressPlan.ipv4.onLink)
            let engine = try XCTUnwrap(monitor.engine)

            // When: its path is read, unscheduled
            let unscheduled = Self.lookups(engine) { _ = monitor.currentPath }

            // and again while a sequence of its paths is held, as a service iterating it holds one
            let paths = monitor.paths()
            let iterated = Self.lookups(engine) { _ = monitor.currentPath }
            withExtendedLifetime(paths) { monitor.cancel() }

            // Then: a lookup per read before, none (beyond the subscription's own) while iterated
            XCTAssertGreaterThanOrEqual(unscheduled, Self.reads, "an unscheduled read asks the kernel")
            XCTAssertLessThan(iterated, Self.reads / 2, "reads of an iterated monitor asked the kernel: \(iterated) lookups")
        }
    }

    /// How many route lookups the engine made while `read` ran `reads` times.
    private static func lookups(_ engine: EngineHandle, _ read: () -> Void) -> Int {
        let before = engine.currentCounters.lookups
        for _ in 0..<reads { read() }
        return engine.currentCounters.lookups - before
    }
}
