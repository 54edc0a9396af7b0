import Dispatch
import Foundation
import NetworkReachability
@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import XCTest

/// Probers of one namespace share its engine: the engine's loop keeps their re-probe timers and
/// its pool resolves their names, so a prober costs a descriptor (its boot clock), not a thread.
final class ConnectivitySharedLoopTests: XCTestCase {
    static let probers = 12

    /// Given one started monitor with a probe, when 12 more monitors of 12 other probe
    /// configurations in the namespace start and are answered, then the process has started no
    /// library loop (`LoopThread.runningLoops`): the engine's one serves them all; and once they
    /// go, no descriptor of theirs stays open. (Loops are counted, not threads named
    /// `LoopThread.name`: a thread that a loop's thread starts to enter a namespace, for a
    /// probe's socket, inherits that name while it runs.)
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
            let loopsBefore = LoopThread.runningLoops
            XCTAssertFalse(loopsBefore.isEmpty, "the engine's loop runs")
            let descriptorsBefore = ProcessResources.descriptors

            var others = try (1...Self.probers).map(watched)
            for watch in others { XCTAssertTrue(watch.wait(for: .full)) }
            XCTAssertEqual(lab.connections, Self.probers + 1, "one probe per configuration")
            let added = LoopThread.runningLoops.subtracting(loopsBefore)
            XCTAssertEqual(added, [], "\(Self.probers) probers added \(added.count) loops")

            others.forEach { $0.monitor.cancel() }
            others.removeAll()
            try waitUntil("the probers' descriptors are closed: \(ProcessResources.descriptorsOpened(since: descriptorsBefore))") {
                ProcessResources.descriptorsOpened(since: descriptorsBefore).isEmpty
            }
        }
    }
}
