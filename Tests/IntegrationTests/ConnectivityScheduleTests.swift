import Dispatch
import Foundation
import NetworkReachability
import XCTest

/// When probes run, what a watcher sees across changes, and the lifecycle (connectivity.md, "When").
final class ConnectivityScheduleTests: XCTestCase {
    /// Given a watched monitor with a probe, when the server turns into a portal and back, the link
    /// drops and returns, then the path handler sees full, portal, full, none, unknown, full, and
    /// the flags callback never fires for a connectivity-only change.
    func testTransitions_fullPortalFull_linkDropsAndReturns() throws {
        try withProbeLab { lab in
            let monitor = try lab.client.generalMonitor()
            monitor.connectivityProbe = try ProbeLab.probe()
            let watch = ConnectivityWatch(monitor)
            defer { monitor.cancel() }
            XCTAssertTrue(watch.wait(for: .full))
            XCTAssertEqual(watch.connectivities.first, .unknown, "the path is delivered before its answer")
            let flagsBefore = watch.flags.count
            lab.setMode("302")
            XCTAssertTrue(watch.wait(for: .portal))  // at the next interval
            XCTAssertEqual(watch.paths.all.last?.portalURL, "http://10.88.0.2:8080/login?from=probe")
            lab.setMode("204")
            XCTAssertTrue(watch.wait(for: .full))  // sooner: the backoff while portal
            XCTAssertEqual(watch.flags.count, flagsBefore, "no flags callback for connectivity changes")

            // The link drops while a probe is in flight: none at once, and the probe's late answer never shows.
            lab.setMode("silent")
            let connections = lab.connections
            try waitUntil("a probe is in flight") { lab.connections > connections }
            let dropped = watch.paths.count
            try lab.client.ip("link", "set", "c0", "down")
            XCTAssertTrue(watch.wait(for: .none))
            lab.setMode("204")
            Thread.sleep(forTimeInterval: 2)  // longer than the silent probe's timeout: a late answer would show now
            XCTAssertEqual(watch.paths.all[dropped...].map(\.connectivity).filter { $0 != .none }, [],
                           "nothing but none after the drop")

            try lab.client.ip("link", "set", "c0", "up")
            try lab.client.ip("route", "replace", "default", "via", ProbeLab.serverAddress)
            XCTAssertTrue(watch.wait(for: .full))
            let afterReturn = Array(watch.connectivities[dropped...])
            XCTAssertEqual(afterReturn.first(where: { $0 != .none }), .unknown, "unknown, then the answer: \(afterReturn)")
        }
    }

    /// Cancel while a probe is in flight: no callback afterwards, and no descriptor left open.
    func testCancelWhileInFlight_noCallbackAfter_noLeakedDescriptor() throws {
        try withProbeLab(mode: "silent") { lab in
            try assertCancelInFlightLeavesNothing(lab, probe: try ProbeLab.probe(timeout: .seconds(5), interval: .seconds(5))) {
                lab.connections >= 1
            }
        }
    }

    /// 1,000 monitors with the same probe in one namespace share one prober: one request per
    /// interval, however long the making of the monitors and the delivery to them take.
    func testThousandMonitorsShareOneProbe_oneRequestPerInterval() throws {
        try withProbeLab { lab in
            let interval = 3 * ReliabilityEnvironment.timeScale
            let probe = try ProbeLab.probe(interval: .milliseconds(Int(interval * 1000)))
            let queue = DispatchQueue(label: "thousand")
            let full = Recorder<Int>()
            var monitors: [PathMonitor] = []
            for index in 0..<1000 {
                let monitor = try lab.client.generalMonitor()
                monitor.connectivityProbe = probe
                monitor.pathUpdateHandler = { if $0.connectivity == .full { full.append(index) } }
                monitor.start(queue: queue)
                monitors.append(monitor)
            }
            defer { monitors.forEach { $0.cancel() } }
            XCTAssertTrue(full.wait(until: "all 1000 are full") { Set($0).count == 1000 })
            try waitUntil("two more intervals' probes", notBefore: 2 * interval) { lab.connections >= 3 }
            let times = lab.connectionTimes
            let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
            XCTAssertFalse(gaps.isEmpty, "the server recorded when it accepted: \(times)")
            // A timer never fires early; 50 ms is the server's own scheduling.
            XCTAssertEqual(gaps.filter { $0 < interval - 0.05 }, [], "one request per interval for 1000 monitors: \(gaps)")
        }
    }

    /// The async sequence and the delegate see the answers too.
    func testAsyncSequenceAndDelegate_deliverConnectivity() throws {
        try withProbeLab { lab in
            let monitor = try lab.client.generalMonitor()
            monitor.connectivityProbe = try ProbeLab.probe()
            let delegate = ConnectivityDelegate()
            monitor.delegate = delegate
            monitor.start(queue: DispatchQueue(label: "delegate"))
            defer { monitor.cancel() }
            let fromSequence = Recorder<Connectivity>()
            let task = Task {
                for await path in monitor {
                    fromSequence.append(path.connectivity)
                    if path.connectivity == .full { break }
                }
            }
            defer { task.cancel() }
            XCTAssertTrue(fromSequence.wait(until: "the sequence yields full") { $0.last == .full })
            XCTAssertTrue(delegate.paths.wait(until: "the delegate hears full") { $0.last?.connectivity == .full })
            XCTAssertEqual(monitor.currentPath.connectivity, .full, "currentPath carries the answer")
        }
    }
}

private final class ConnectivityDelegate: PathMonitorDelegate {
    let paths = Recorder<NetworkPath>()
    func pathMonitor(_ monitor: PathMonitor, didUpdate path: NetworkPath) { paths.append(path) }
}

/// How many descriptors this process has open.
func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

extension ConnectivityScheduleTests {
    /// A monitor stopped and started again with the same path says `unknown` until probed again
    /// (its old answer aged unseen), then probes, and keeps probing every interval.
    func testRestartWithTheSamePath_probesAgain() throws {
        try withProbeLab { lab in
            let monitor = try lab.client.generalMonitor()
            monitor.connectivityProbe = try ProbeLab.probe()
            let first = ConnectivityWatch(monitor)
            XCTAssertTrue(first.wait(for: .full))
            monitor.cancel()
            lab.setMode("511")
            let second = ConnectivityWatch(monitor)
            defer { monitor.cancel() }
            XCTAssertTrue(second.wait(for: .portal), "probed again after the restart")
            XCTAssertEqual(second.connectivities.first, .unknown, "not the old answer first: \(second.connectivities)")
            XCTAssertFalse(second.connectivities.contains(.full), "the old answer is never redelivered: \(second.connectivities)")
            lab.setMode("204")
            XCTAssertTrue(second.wait(for: .full), "and again at the backoff")
        }
    }
}
