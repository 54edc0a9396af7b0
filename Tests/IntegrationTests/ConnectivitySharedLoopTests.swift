import Dispatch
import Foundation
import NetworkReachability
import XCTest

/// Probers of one namespace share its engine: the engine's loop keeps their re-probe timers and
/// its pool resolves their names, so a prober costs a descriptor (its boot clock), not a thread.
final class ConnectivitySharedLoopTests: XCTestCase {
    static let probers = 12
    /// What may differ between two settled counts whatever the probers do (a dispatch worker
    /// that another test's work keeps busy); one thread per prober would be 12.
    static let threadMargin = 2

    /// Given one started monitor with a probe, when 12 more monitors of 12 other probe
    /// configurations in the namespace start and are answered, then the process has at most a few
    /// threads more, not one per prober; and once they go, no descriptor of theirs stays open.
    func testProbersOfManyConfigurations_addNoThreadEach_closeTheirClocks() throws {
        try withProbeLab { lab in
            // Distinct intervals make distinct configurations, hence distinct probers; long ones,
            // so that no re-probe runs during the test (the timers are armed all the same).
            func watched(_ index: Int) throws -> ConnectivityWatch {
                let monitor = try lab.client.generalMonitor()
                monitor.connectivityProbe = try ProbeLab.probe(interval: .seconds(600 + index))
                return ConnectivityWatch(monitor)
            }
            let first = try watched(0)
            defer { first.monitor.cancel() }
            XCTAssertTrue(first.wait(for: .full))
            let threadsBefore = try XCTUnwrap(Self.settledThreads(), "the thread count settled")
            let descriptorsBefore = ProcessResources.descriptors

            var others = try (1...Self.probers).map(watched)
            for watch in others { XCTAssertTrue(watch.wait(for: .full)) }
            XCTAssertEqual(lab.connections, Self.probers + 1, "one probe per configuration")
            let threadsAfter = try XCTUnwrap(Self.settledThreads(), "the thread count settled")
            XCTAssertLessThanOrEqual(threadsAfter - threadsBefore, Self.threadMargin,
                                     "\(Self.probers) probers added \(threadsAfter - threadsBefore) threads")

            others.forEach { $0.monitor.cancel() }
            others.removeAll()
            let closed = Self.waitUntil { ProcessResources.descriptorsOpened(since: descriptorsBefore).isEmpty }
            XCTAssertTrue(closed, "left open: \(ProcessResources.descriptorsOpened(since: descriptorsBefore))")
        }
    }

    /// Polls `condition` until it holds or 30 s passed. - Returns: whether it held.
    private static func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    /// The thread count once it stayed the same for 6 s, or nil after 60 s. Dispatch keeps an idle
    /// worker for about 5 s after its last work item (the probes and the deliveries ran on some):
    /// a count taken sooner counts workers that are about to go, which would hide or fake a
    /// thread per prober.
    private static func settledThreads() -> Int? {
        let deadline = Date().addingTimeInterval(60)
        var count = ProcessResources.threads
        var since = Date()
        while Date() < deadline {
            usleep(100_000)
            let now = ProcessResources.threads
            if now != count {
                (count, since) = (now, Date())
            } else if Date().timeIntervalSince(since) >= 6 {
                return count
            }
        }
        return nil
    }
}
