@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// A route event moves only destinations inside its prefix: targets outside it are not asked about
/// again, and a target inside it sees the change.
final class ScopedReevaluationTests: XCTestCase {
    func testRouteChurnOutsideATarget_asksTheKernelNothing_andMovesNoCallback() throws {
        try withNamespace { ns in
            // Given: a scheduled monitor of an on-link address
            try ns.addLAN(.ipv4, linkLocal: false)  // no late DAD events: only the routes below change
            let monitor = try ns.monitor(AddressPlan.ipv4.onLink)
            let flags = Recorder<ReachabilityFlags>()
            let queue = DispatchQueue(label: "scoped")
            monitor.setCallback { flags.append($0) }
            monitor.setDispatchQueue(queue)
            flags.wait(forCount: 1)
            let before = monitor.engine!.currentCounters

            // When: routes come and go far away from it
            for net in 1...20 {
                try ns.ip("-4", "route", "add", "198.51.\(net).0/24", "via", AddressPlan.ipv4.gateway, "dev", "v0")
                try ns.ip("-4", "route", "del", "198.51.\(net).0/24")
            }
            try waitUntil("the engine read the 40 route events") {
                monitor.engine!.currentCounters.scopedReevaluations > before.scopedReevaluations
            }
            settle(monitor, queue)

            // Then: no lookup was made for the target, and no callback came
            let after = monitor.engine!.currentCounters
            XCTAssertEqual(after.lookups, before.lookups, "route events outside the target's address asked the kernel again")
            XCTAssertEqual(flags.all, [[.reachable, .isDirect]])

            // When: a route inside the target's prefix appears
            try ns.ip("-4", "route", "add", "unreachable", "\(AddressPlan.ipv4.onLink)/32")

            // Then: it is asked about again and reports the change
            flags.wait(forCount: 2)
            XCTAssertEqual(flags.all.last, [])
            XCTAssertGreaterThan(monitor.engine!.currentCounters.lookups, after.lookups)
        }
    }
}
