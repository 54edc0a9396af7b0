import Foundation
@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// A monitor unscheduled and scheduled again at once (Alamofire's `startListening` restarts so)
/// stays subscribed: the engine drops a subscriber later, from its waiter's thread, and must not
/// drop one that came back in the meantime. Before the fix, about half the restarts of
/// `ClientProgramTests` left the monitor deaf to every later change.
final class ResubscribeOrderTests: XCTestCase {
    func testUnscheduledAndScheduledAgainAtOnce_theMonitorStillHearsEveryChange() throws {
        try withNamespace { ns in
            // Given a scheduled monitor of an on-link address
            let scheduled = try ScheduledOnLinkMonitor(in: ns)
            let (monitor, flags, queue) = (scheduled.monitor, scheduled.flags, scheduled.queue)
            let engine = try XCTUnwrap(monitor.engine)

            var deaf: [Int] = []
            for round in 1...150 {
                // When it is unscheduled and scheduled again on the same queue
                monitor.setDispatchQueue(nil)
                monitor.setDispatchQueue(queue)
                // (and the engine's deferred work of that moment has run)
                let drained = DispatchSemaphore(value: 0)
                engine.loop.execute { drained.signal() }
                XCTAssertEqual(drained.wait(timeout: .now() + 10), .success)
                // Then the engine still counts it among its subscribers
                let subscribed = engine.onLoop { $0.questions.subscriptions.contains(ObjectIdentifier(monitor.core)) } ?? false
                if !subscribed { deaf.append(round) }
            }
            XCTAssertEqual(deaf, [], "rounds after which the engine no longer delivered to the monitor")

            // And a change after the restarts reaches its callback
            try ns.ip("link", "set", "v0p", "down")
            flags.wait(forLast: ScheduledOnLinkMonitor.noCarrier)
            monitor.unschedule()
        }
    }
}
