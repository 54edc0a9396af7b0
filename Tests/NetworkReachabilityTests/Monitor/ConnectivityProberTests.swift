import Dispatch
import Foundation
import XCTest
@testable import NetworkReachabilityCore
@testable import ReachabilityDelivery
@testable import ReachabilityProbing
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// The prober's schedule (connectivity.md, "When"), with a scripted probe in place of the network.
final class ConnectivityProberTests: XCTestCase {
    private static func path(satisfied: Bool = true, gateway: String = "10.0.0.1") -> NetworkPath {
        NetworkPath(status: satisfied ? .satisfied : .unsatisfied, unsatisfiedReason: satisfied ? nil : .noRoute,
                    flags: satisfied ? [.reachable] : [], interface: nil, availableInterfaces: [], gateways: [Fixture.ip(gateway)],
                    isExpensive: false, isConstrained: false, supportsIPv4: true, supportsIPv6: false, supportsDNS: true)
    }

    private let script = ScriptedProbe()
    private let queue = DispatchQueue(label: "test.prober")

    /// A prober whose probes the test answers; its interval is long, so no timer fires meanwhile.
    private func makeProber() throws -> ConnectivityProber {
        let script = self.script
        return ConnectivityProber(probe: try ConnectivityProbe(url: "http://192.0.2.1/", interval: .seconds(120)),
                                  namespace: .current, run: { script.run($0) })
    }

    /// A monitor's core, scheduled and told of the prober, as `PathMonitor.start` and
    /// `connectivityProbe` leave it; its paths recorded.
    private func listening(_ prober: ConnectivityProber) -> (MonitorCore, Recorder<NetworkPath>) {
        let core = MonitorCore(target: .general(.none), initial: Self.path())
        let paths = Recorder<NetworkPath>()
        core.pathHandler = { paths.append($0) }
        core.setQueue(queue)
        core.setConnectivityProber(prober)
        core.connectivityListenersChanged()
        return (core, paths)
    }

    /// The engine's delivery of `path`, run: the prober hears of it after the faces ran.
    private func record(_ core: MonitorCore, _ path: NetworkPath) {
        core.publish(path).deliver()
        queue.sync {}
    }

    private func waitUntil(_ what: String, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { return XCTFail("timed out waiting until \(what)", file: file, line: line) }
            usleep(2000)
        }
    }

    /// Given `checkConnectivity` on a monitor that is not started, when other monitors of the probe
    /// join, move and leave while it is in flight, then it still runs to its own answer.
    func testOnDemandProbe_ofAnIdleMonitor_isNotCutShortByOtherMonitors() throws {
        let prober = try makeProber()
        let idle = MonitorCore(target: .general(.none), initial: Self.path())
        idle.setConnectivityProber(prober)
        let done = DispatchSemaphore(value: 0)
        prober.probeNow(for: idle) { done.signal() }
        waitUntil("the on-demand probe started") { script.started == 1 }
        // Another monitor joins (the probe in flight answers it too), its path moves (the probe
        // starts again), then it leaves (only the on-demand monitor is left to answer).
        let (other, _) = listening(prober)
        prober.settle()
        record(other, Self.path(gateway: "10.0.0.254"))
        prober.settle()
        waitUntil("the probe started again for the moved path") { script.started == 2 }
        other.setQueue(nil)
        other.connectivityListenersChanged()
        prober.settle()
        // Each probe runs on a thread of its own: the cancelled one notices as it polls.
        waitUntil("the probe for the old path saw its cancel") { script.cancelled == 1 }
        XCTAssertEqual(script.cancelled, 1, "only the probe for the old path was cancelled")
        script.release(.full)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(idle.current.connectivity, .full, "the on-demand probe's own answer")
        XCTAssertEqual(script.started, 2)
    }

    /// While limited the backoff doubles from 5 s; a moved path and a dropped one start it over.
    func testBackoff_restartsFromFiveSeconds_whenThePathMovesOrDrops() throws {
        let prober = try makeProber()
        let (core, _) = listening(prober)
        func answerLimited(_ count: Int) {
            waitUntil("probe \(count) started") { script.started == count }
            script.release(.limited)
            waitUntil("answer \(count) applied") { core.current.connectivity == .limited }
            prober.settle()
        }
        func doubleBackoff(_ count: Int) {
            let done = DispatchSemaphore(value: 0)
            prober.probeNow(for: core) { done.signal() }
            answerLimited(count)
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
            XCTAssertEqual(prober.backoff, .seconds(10))
        }
        answerLimited(1)
        XCTAssertEqual(prober.backoff, .seconds(5))
        doubleBackoff(2)
        record(core, Self.path(gateway: "10.0.0.254"))  // another gateway: another network
        answerLimited(3)
        XCTAssertEqual(prober.backoff, .seconds(5), "the moved path starts the backoff over")
        doubleBackoff(4)
        record(core, Self.path(satisfied: false))
        prober.settle()
        record(core, Self.path(gateway: "10.0.0.254"))  // back on the same network
        answerLimited(5)
        XCTAssertEqual(prober.backoff, .seconds(5), "a path that dropped starts the backoff over")
    }

    /// Given an answer, when its only listener stops, then neither a monitor joining later nor the
    /// same monitor started again is told that answer: `unknown` until the new probe answers.
    func testAnswerOfMonitorsThatStopped_isNotRedelivered() throws {
        let prober = try makeProber()
        let (first, firstPaths) = listening(prober)
        waitUntil("the first probe started") { script.started == 1 }
        script.release(.full)
        waitUntil("the first monitor is full") { firstPaths.values.last?.connectivity == .full }
        first.setQueue(nil)
        first.connectivityListenersChanged()
        prober.settle()

        let (second, secondPaths) = listening(prober)
        defer { withExtendedLifetime(second) {} }  // the prober holds its monitors weakly
        waitUntil("a probe started for the monitor that joined") { script.started == 2 }
        prober.settle()
        queue.sync {}
        XCTAssertEqual(secondPaths.values.map(\.connectivity), [.unknown], "not the answer nobody listened to")

        let delivered = firstPaths.values.count
        first.setQueue(queue)
        record(first, Self.path())  // the engine's first delivery after a start
        first.connectivityListenersChanged()
        prober.settle()
        queue.sync {}
        XCTAssertEqual(firstPaths.values[delivered...].map(\.connectivity), [.unknown], "the restart says unknown")

        script.release(.portal)
        waitUntil("both hear the new answer") {
            firstPaths.values.last?.connectivity == .portal && secondPaths.values.last?.connectivity == .portal
        }
        XCTAssertEqual(script.started, 2, "the restarted monitor joined the probe in flight")
    }
}

/// A probe that answers what the test releases, one answer per probe, and counts probes started
/// and cancelled; it wakes from its wait on the probe's cancel, as `ProbeRunner` does.
final class ScriptedProbe: Sendable {
    private struct Script {
        var pending: [Connectivity] = []
        var started = 0
        var cancelled = 0
    }

    private let script = LockedState(Script())

    var started: Int { script.withLock { $0.started } }
    var cancelled: Int { script.withLock { $0.cancelled } }

    func release(_ connectivity: Connectivity) {
        script.withLock { $0.pending.append(connectivity) }
    }

    func run(_ signal: ProbeSignal) -> ConnectivityAnswer? {
        script.withLock { $0.started += 1 }
        while true {
            if signal.isCancelled {
                script.withLock { $0.cancelled += 1 }
                return nil
            }
            let next = script.withLock { $0.pending.isEmpty ? nil : $0.pending.removeFirst() }
            if let next { return ConnectivityAnswer(connectivity: next, source: .probe("http://192.0.2.1/"), detail: "scripted") }
            usleep(1000)
        }
    }
}
