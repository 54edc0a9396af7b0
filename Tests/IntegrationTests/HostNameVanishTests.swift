import Foundation
import NetworkReachability
import XCTest
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// Host names whose namespace goes away before they resolved.
final class HostNameVanishTests: XCTestCase {
    func testPendingNames_whenTheNamespaceVanishes_answerAtOnce_notAfterTheirFirstResolutionTimeout() throws {
        try withDNSLAN(requiring: [.python]) { bed in
            // Given a name server that never answers, and more names than the resolver has threads
            // (four: the last two wait in its queue), each allowed 30 s for its first resolution
            try bed.useTestServer(options: "timeout:20 attempts:1")
            _ = try bed.startSilentServer()
            let options = HostResolutionOptions(firstResolutionTimeout: .seconds(30))
            let monitors = try (0..<6).map { try bed.monitor(host: "pending-\($0).nrx.test", options: options) }
            // When the namespace is deleted while every name is still pending
            try ip("netns", "del", bed.name)
            // Then each monitor says so at once: no name is left waiting for an answer that the
            // stopped resolver will never give
            let start = Date()
            for (position, monitor) in monitors.enumerated() {
                XCTAssertEqual(monitor.currentPath.unsatisfiedReason, .namespaceUnavailable, "pending-\(position)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), integrationTimeout,
                              "currentPath of names pending in a vanished namespace waited for their first-resolution timeout")
            // The bed deletes its namespace on the way out: give it one of that name again
            try ip("netns", "add", bed.name)
        }
    }
}
