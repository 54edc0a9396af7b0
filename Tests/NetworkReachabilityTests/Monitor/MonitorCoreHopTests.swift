import Dispatch
import XCTest
@testable import NetworkReachabilityCore
@testable import ReachabilityDelivery
import ReachabilityModel

/// A schedule with a hop (`ReachabilityCompat`'s run loops), without a kernel: the faces run where
/// the hop performs a delivery, and the core's gate still decides whether they run.
final class MonitorCoreHopTests: XCTestCase {
    /// Keeps each run it is handed, for the test to perform where and as often as it likes.
    private final class HeldHop: DeliveryHop {
        let runs = Recorder<@Sendable (_ isWanted: () -> Bool) -> Void>()

        func carry(_ perform: @escaping @Sendable (_ isWanted: () -> Bool) -> Void) {
            runs.append(perform)
        }

        /// Performs the run it was handed `index`th, in a place that does or does not want it.
        func perform(_ index: Int, wanted: Bool = true) {
            let run = runs.values[index]
            run { wanted }
        }
    }

    private static func path(_ flags: ReachabilityFlags) -> NetworkPath {
        NetworkPath(status: flags.contains(.reachable) ? .satisfied : .unsatisfied,
                    unsatisfiedReason: flags.contains(.reachable) ? nil : .noRoute, flags: flags,
                    interface: nil, availableInterfaces: [], gateways: [], isExpensive: false,
                    isConstrained: false, supportsIPv4: true, supportsIPv6: false, supportsDNS: true)
    }

    /// A core recording its paths, scheduled on a new queue with a new `HeldHop`.
    private func makeScheduledCore() -> (MonitorCore, DispatchQueue, HeldHop, Recorder<NetworkPath>) {
        let core = MonitorCore(target: .general(.none), initial: .unsatisfied(.noRoute))
        let queue = DispatchQueue(label: "test.hop")
        let hop = HeldHop()
        // A run holds its delivery, which holds the hop: the runs kept are let go at the end.
        addTeardownBlock { hop.runs.removeAll() }
        let paths = Recorder<NetworkPath>()
        core.pathHandler = { paths.append($0) }
        _ = core.reschedule { _ in .move(to: MonitorSchedule(queue: queue, hop: hop)) }
        return (core, queue, hop, paths)
    }

    func testFacesRunWhereTheHopPerforms_once_howeverManyPlacesPerformIt() {
        let (core, queue, hop, paths) = makeScheduledCore()
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        XCTAssertEqual(paths.values, [], "nothing runs on the queue itself")
        XCTAssertEqual(hop.runs.values.count, 1)

        hop.perform(0)
        hop.perform(0)
        XCTAssertEqual(paths.values, [Self.path([.reachable])])
    }

    func testARunThePlaceNoLongerWants_runsNothing_andAnotherPlaceStillMay() {
        let (core, queue, hop, paths) = makeScheduledCore()
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        hop.perform(0, wanted: false)
        XCTAssertEqual(paths.values, [])
        hop.perform(0)
        XCTAssertEqual(paths.values, [Self.path([.reachable])])
    }

    func testAnOlderRun_performedAfterANewerOne_isDropped() {
        let (core, queue, hop, paths) = makeScheduledCore()
        core.publish(Self.path([.reachable])).deliver()
        core.publish(Self.path([])).deliver()
        queue.sync {}
        hop.perform(1)
        hop.perform(0)
        XCTAssertEqual(paths.values, [Self.path([])])
    }

    func testARunOfAnOlderSchedule_isDropped() {
        let (core, queue, hop, paths) = makeScheduledCore()
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        _ = core.reschedule { _ in .move(to: nil) }
        _ = core.reschedule { _ in .move(to: MonitorSchedule(queue: queue, hop: hop)) }
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        hop.perform(0)
        XCTAssertEqual(paths.values, [], "the first schedule's run")
        hop.perform(1)
        XCTAssertEqual(paths.values, [Self.path([.reachable])])
    }

    func testRefuseAndKeep_leaveTheScheduleAsItIs() {
        let (core, queue, hop, paths) = makeScheduledCore()
        var handed: [ObjectIdentifier?] = []
        let refused = core.reschedule { current in
            handed.append(current?.hop.map { ObjectIdentifier($0) })
            return .refuse
        }
        guard case .refuse = refused else { return XCTFail("refused: \(refused)") }
        guard case .keep = core.reschedule({ _ in .keep }) else { return XCTFail("kept") }
        XCTAssertEqual(handed, [ObjectIdentifier(hop)], "decide is handed the current schedule")
        XCTAssertTrue(core.isActive)
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        hop.perform(0)
        XCTAssertEqual(paths.values, [Self.path([.reachable])], "still delivered through the same hop")
    }
}
