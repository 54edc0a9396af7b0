import NetworkReachability
import XCTest

/// `fetchCurrentPath()` answers what `currentPath` answers, the probe's connectivity included: a
/// route handler that reads the path with it (the README's server) sees the probe's answer.
final class ConnectivityFetchTests: XCTestCase {
    func testFetchCurrentPath_ofAListeningHostNameMonitor_carriesTheProbesAnswer() throws {
        try withProbeLab { lab in
            // Given: a started monitor of a name, whose probe got through
            let monitor = try PathMonitor(host: "localhost", namespace: lab.client.reference)
            monitor.connectivityProbe = try ProbeLab.probe()
            let watch = ConnectivityWatch(monitor)
            defer { monitor.cancel() }
            XCTAssertTrue(watch.wait(for: .full))

            // When: its path is read both ways
            let fetched = runAsync { await monitor.fetchCurrentPath() }

            // Then: both carry the answer
            XCTAssertEqual(monitor.currentPath.connectivity, .full)
            XCTAssertEqual(fetched.connectivity, .full)
            XCTAssertEqual(fetched.connectivitySource, .probe(ProbeLab.url))
        }
    }

    func testFetchCurrentPath_ofAnUnscheduledMonitorWithoutARoute_saysNone() throws {
        try withProbeLab { lab in
            // Given: a monitor with a probe, never started, of an address the kernel refuses
            try lab.client.ip("route", "add", "unreachable", "198.51.100.0/24")
            let monitor = try lab.client.monitor("198.51.100.1")
            monitor.connectivityProbe = try ProbeLab.probe()

            // When: its path is read both ways
            let fetched = runAsync { await monitor.fetchCurrentPath() }

            // Then: not satisfied, so connectivity none (no probe is sent), as currentPath says
            XCTAssertEqual(fetched.status, .unsatisfied)
            XCTAssertEqual(monitor.currentPath.connectivity, .none)
            XCTAssertEqual(fetched.connectivity, .none)
        }
    }
}
