import Foundation
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Issue 15: `fetchCurrentPath()` waits for a name's first resolution by suspending, where
/// `currentPath` blocks its thread as `SCNetworkReachabilityGetFlags` does.
final class HostNameFetchTests: XCTestCase {
    func testFetchCurrentPath_ofANewName_suspendsUntilItResolves() throws {
        try withDNSNamespace { bed in
            // Given an unscheduled monitor of a name the namespace's server knows
            try bed.addLAN()
            try bed.useTestServer()
            try bed.startDNSServer([DNSRecord("known.nrx.test", LAN.onLink)])
            let monitor = try bed.monitor(host: "known.nrx.test")
            // When its path is fetched
            let path = runAsync { await monitor.fetchCurrentPath() }
            // Then it is the resolved one
            XCTAssertEqual(path.resolvedAddresses.map(\.description), [LAN.onLink], "\(path)")
            XCTAssertEqual(path.flags, [.reachable, .isDirect])
        }
    }

    func testFetchCurrentPath_ofManyNamesThatNeverResolve_holdsNoThreadWhileWaiting() throws {
        try withDNSNamespace(requiring: [.python]) { bed in
            // Given a name server that never answers, and more monitors of unresolved names than
            // the cooperative pool has threads (first-resolution timeout 4 s each)
            try bed.addLAN()
            try bed.useTestServer(options: "timeout:20 attempts:1")
            _ = try bed.startSilentServer()
            let timeout = 4.0
            let options = HostResolutionOptions(firstResolutionTimeout: .seconds(timeout))
            let count = 4 * max(ProcessInfo.processInfo.activeProcessorCount, 2)
            let monitors = try (0..<count).map { try bed.monitor(host: "silent-\($0).nrx.test", options: options) }
            // When every path is fetched at once, each fetch in a task of its own
            let start = Date()
            let started = Recorder<Int>()
            let paths = Recorder<NetworkPath>()
            for (position, monitor) in monitors.enumerated() {
                Task {
                    started.append(position)
                    paths.append(await monitor.fetchCurrentPath())
                }
            }
            // Then every task got a thread while the others wait: a fetch that blocked its thread
            // would hold the pool's few threads until the first-resolution timeout
            started.wait(forCount: count)
            XCTAssertLessThan(Date().timeIntervalSince(start), timeout / 2,
                              "tasks waited for a thread while fetches were waiting for names")
            // And each fetch returns with the name not resolved, after the timeout
            paths.wait(forCount: count)
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), timeout - 0.5, "the fetches must wait for the first resolution")
            XCTAssertTrue(paths.all.allSatisfy { $0.unsatisfiedReason == .nameNotResolved }, "\(paths.all)")
        }
    }
}
