import Dispatch
import XCTest
@testable import NetworkReachabilityCore
@testable import ReachabilityDelivery
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// Issue 18 without a kernel: a host name's placeholder is never delivered, and setting one flags
/// face on a scheduled core gives that face the current flags without giving them again to the other.
final class MonitorCoreFirstStateTests: XCTestCase {
    private static func path(_ flags: ReachabilityFlags) -> NetworkPath {
        NetworkPath(status: flags.contains(.reachable) ? .satisfied : .unsatisfied,
                    unsatisfiedReason: flags.contains(.reachable) ? nil : .noRoute, flags: flags,
                    interface: nil, availableInterfaces: [], gateways: [], isExpensive: false,
                    isConstrained: false, supportsIPv4: true, supportsIPv6: false, supportsDNS: true)
    }

    private static let callback: PathMonitor.Callback = { _, flags, info in
        guard let info else { return }
        Unmanaged<Recorder<ReachabilityFlags>>.fromOpaque(info).takeUnretainedValue().append(flags)
    }

    func testPlaceholder_isNotRedelivered_whenAHandlerIsSetAfterScheduling() {
        // Given a core whose initial path is a placeholder (a name still being resolved), scheduled
        let core = MonitorCore(target: .host("slow.example"), initial: Self.path([]), hasState: false)
        let queue = DispatchQueue(label: "test.delivery")
        let flags = Recorder<ReachabilityFlags>()
        let paths = Recorder<NetworkPath>()
        core.setQueue(queue)
        // When handlers are set after scheduling
        core.setFlagsHandler { flags.append($0) }
        core.pathHandler = { paths.append($0) }
        queue.sync {}
        // Then nothing arrives until the engine's first real evaluation, which arrives even when it equals the placeholder
        XCTAssertEqual(flags.values, [])
        XCTAssertEqual(paths.values, [])
        core.publish(Self.path([])).deliver()
        queue.sync {}
        XCTAssertEqual(flags.values, [[]])
        XCTAssertEqual(paths.values, [Self.path([])])
    }

    func testSettingTheCallback_afterTheHandler_doesNotGiveTheHandlerTheSameFlagsAgain() {
        let core = MonitorCore(target: .general(.none), initial: Self.path([.reachable]))
        // The C callback is handed its monitor: any monitor will do as the owner.
        let owner = PathMonitor(unavailable: .general(.none), namespace: .current, error: .namespaceNotFound(path: "/nowhere"))
        core.attach(owner: owner)
        let queue = DispatchQueue(label: "test.delivery")
        let handled = Recorder<ReachabilityFlags>()
        let called = Recorder<ReachabilityFlags>()
        core.setFlagsHandler { handled.append($0) }
        core.setQueue(queue)
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        // When the C callback is set on the scheduled core
        core.setCallback(Self.callback, context: CallbackContext(PathMonitor.Context(info: Unmanaged.passUnretained(called).toOpaque())))
        queue.sync {}
        // Then it gets the current flags; the handler, which had them, does not get them twice
        XCTAssertEqual(called.values, [[.reachable]])
        XCTAssertEqual(handled.values, [[.reachable]])
        withExtendedLifetime((called, owner)) {}
    }

    private final class DelegateProbe: PathMonitorDelegate {
        let paths = Recorder<NetworkPath>()
        func pathMonitor(_ monitor: PathMonitor, didUpdate path: NetworkPath) { paths.append(path) }
    }

    func testSettingThePathHandler_afterTheDelegate_doesNotGiveTheDelegateTheSamePathAgain() {
        let core = MonitorCore(target: .general(.none), initial: Self.path([.reachable]))
        let owner = PathMonitor(unavailable: .general(.none), namespace: .current, error: .namespaceNotFound(path: "/nowhere"))
        core.attach(owner: owner)
        let queue = DispatchQueue(label: "test.delivery")
        let delegate = DelegateProbe()
        let paths = Recorder<NetworkPath>()
        core.delegate = DelegateFace(delegate)
        core.setQueue(queue)
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        core.pathHandler = { paths.append($0) }
        queue.sync {}
        XCTAssertEqual(paths.values, [Self.path([.reachable])])
        XCTAssertEqual(delegate.paths.values, [Self.path([.reachable])])
        withExtendedLifetime(owner) {}
    }

    func testDelegateSetAfterScheduling_getsTheCurrentPathOnce_andTheHandlerNotAgain() {
        // Given a scheduled core whose path handler already had the current path
        let core = MonitorCore(target: .general(.none), initial: Self.path([.reachable]))
        let owner = PathMonitor(unavailable: .general(.none), namespace: .current, error: .namespaceNotFound(path: "/nowhere"))
        core.attach(owner: owner)
        let (queue, paths) = core.scheduleRecordingPaths()
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        // When a delegate is set on the scheduled core, and the same path is evaluated again
        let delegate = DelegateProbe()
        core.delegate = DelegateFace(delegate)
        queue.sync {}
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        // Then the delegate gets the current path once; the handler does not get it twice
        XCTAssertEqual(delegate.paths.values, [Self.path([.reachable])])
        XCTAssertEqual(paths.values, [Self.path([.reachable])])
        // And a change reaches both
        core.publish(Self.path([])).deliver()
        queue.sync {}
        XCTAssertEqual(delegate.paths.values, [Self.path([.reachable]), Self.path([])])
        XCTAssertEqual(paths.values, [Self.path([.reachable]), Self.path([])])
        withExtendedLifetime(owner) {}
    }

    func testDelegateSetAfterScheduling_onAPlaceholder_getsNothingUntilTheFirstEvaluation() {
        let core = MonitorCore(target: .host("slow.example"), initial: Self.path([]), hasState: false)
        let owner = PathMonitor(unavailable: .general(.none), namespace: .current, error: .namespaceNotFound(path: "/nowhere"))
        core.attach(owner: owner)
        let queue = DispatchQueue(label: "test.delivery")
        core.setQueue(queue)
        let delegate = DelegateProbe()
        core.delegate = DelegateFace(delegate)
        queue.sync {}
        XCTAssertEqual(delegate.paths.values, [])
        core.publish(Self.path([.reachable])).deliver()
        queue.sync {}
        XCTAssertEqual(delegate.paths.values, [Self.path([.reachable])])
        withExtendedLifetime(owner) {}
    }
}
