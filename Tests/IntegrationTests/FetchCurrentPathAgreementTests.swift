import Dispatch
import Foundation
import NetworkReachability
import XCTest

/// `currentPath` (blocking) and `fetchCurrentPath()` (async) are two ways to read one path: with a
/// probe configured they must agree on the probe's answer too, for every kind of target, scheduled
/// or not. (The async read once returned the engine's path without the probe's answer.)
final class FetchCurrentPathAgreementTests: XCTestCase {
    private func targets(in lab: ProbeLab) throws -> [(String, PathMonitor)] {
        [
            ("general path", try lab.client.generalMonitor()),
            ("address", try lab.client.monitor(ProbeLab.serverAddress)),
            // /etc/hosts answers: no name server needed for a host target.
            ("host name", try PathMonitor(host: "localhost", namespace: .named(lab.client.name))),
        ]
    }

    /// Given a scheduled monitor whose probe answered `portal` with a URL, when the path is read both
    /// ways, then both carry that answer.
    func testScheduled_blockingAndAsyncReadsAgreeOnTheProbesAnswer() throws {
        try withProbeLab(mode: "302") { lab in
            for (kind, monitor) in try targets(in: lab) {
                monitor.connectivityProbe = try ProbeLab.probe()
                let watch = ConnectivityWatch(monitor)
                XCTAssertTrue(watch.wait(for: .portal), kind)
                let blocking = monitor.currentPath
                let fetched = awaitPath { await monitor.fetchCurrentPath() }
                XCTAssertEqual(blocking.connectivity, .portal, kind)
                XCTAssertEqual(fetched.connectivity, blocking.connectivity, kind)
                XCTAssertEqual(fetched.portalURL, blocking.portalURL, kind)
                XCTAssertNotNil(fetched.portalURL, kind)
                monitor.cancel()
            }
        }
    }

    /// Given a monitor that is not started and was probed on demand, when the path is read both
    /// ways, then both say the same about connectivity.
    func testNotStarted_blockingAndAsyncReadsAgreeOnTheProbesAnswer() throws {
        try withProbeLab(mode: "302") { lab in
            for (kind, monitor) in try targets(in: lab) {
                monitor.connectivityProbe = try ProbeLab.probe()
                let checked = awaitPath { await monitor.checkConnectivity() }
                XCTAssertEqual(checked.connectivity, .portal, kind)
                let fetched = awaitPath { await monitor.fetchCurrentPath() }
                let blocking = monitor.currentPath
                XCTAssertEqual(fetched.connectivity, blocking.connectivity, kind)
                XCTAssertEqual(fetched.portalURL, blocking.portalURL, kind)
                XCTAssertEqual(fetched.connectivitySource, blocking.connectivitySource, kind)
            }
        }
    }
}
