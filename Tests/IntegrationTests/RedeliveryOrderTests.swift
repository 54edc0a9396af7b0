import Foundation
@testable import NetworkReachabilityCore
@testable import ReachabilityDelivery
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Issue 15, bug 2: a callback set on a scheduled monitor gets the current state at once. When
/// the engine stores and queues a newer state in that moment, the older one must not overtake it.
final class RedeliveryOrderTests: XCTestCase {
    func testHandlersSetWhileTheLinkFlaps_theLastStateDeliveredIsTheKernels() throws {
        try withNamespace { ns in
            // Given a scheduled monitor of an on-link address
            let scheduled = try ScheduledOnLinkMonitor(in: ns)
            let (monitor, flags, queue) = (scheduled.monitor, scheduled.flags, scheduled.queue)
            let (carrier, noCarrier) = (ScheduledOnLinkMonitor.carrier, ScheduledOnLinkMonitor.noCarrier)
            defer { MonitorCore.beforeRedelivery.withLock { $0 = nil } }

            var carrierUp = true
            for round in 1...4 {
                // When the link flaps just as a handler is set (the engine has stored the new state
                // before the handler's first delivery is made)
                carrierUp.toggle()
                let expected = carrierUp ? carrier : noCarrier
                let state = carrierUp ? "up" : "down"
                MonitorCore.beforeRedelivery.withLock { hook in
                    hook = {
                        _ = try? ns.ip("link", "set", "v0p", state)
                        _ = try? waitUntil("the engine stored the state after v0p went \(state)") { monitor.currentPath.flags == expected }
                    }
                }
                let paths = Recorder<NetworkPath>()
                monitor.pathUpdateHandler = { paths.append($0) }
                MonitorCore.beforeRedelivery.withLock { $0 = nil }
                paths.wait(forCount: 1)
                settle(monitor, queue)

                // Then the last state every callback saw, and the monitor's current path, are the kernel's
                XCTAssertEqual(flags.all.last, expected, "round \(round): \(names(flags.all))")
                XCTAssertEqual(paths.all.last?.flags, expected, "round \(round): \(paths.all.map { names($0.flags) })")
                XCTAssertEqual(monitor.currentPath.flags, expected, "round \(round)")
            }
            monitor.unschedule()
        }
    }
}
