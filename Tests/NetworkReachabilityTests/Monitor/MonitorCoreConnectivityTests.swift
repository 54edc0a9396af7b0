import Dispatch
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

/// Connectivity answers composed onto the engine's paths under the monitor's lock, without a kernel.
final class MonitorCoreConnectivityTests: XCTestCase {
    private static func path(satisfied: Bool = true, gateway: String = "10.0.0.1") -> NetworkPath {
        NetworkPath(status: satisfied ? .satisfied : .unsatisfied, unsatisfiedReason: satisfied ? nil : .noRoute,
                    flags: satisfied ? [.reachable] : [], interface: nil, availableInterfaces: [], gateways: [Fixture.ip(gateway)],
                    isExpensive: false, isConstrained: false, supportsIPv4: true, supportsIPv6: false, supportsDNS: true)
    }

    private static let answer = ConnectivityAnswer(connectivity: .portal, portalURL: "http://portal/", source: .probe("http://x/"),
                                                   detail: "test")

    func testAnswer_composesOntoTheLatestPath_neverAnOlderOne_andFiresNoFlagsCallback() throws {
        // Given: a scheduled core with a passive prober (it sends nothing: the test applies answers by hand)
        let core = MonitorCore(target: .general(.none), initial: Self.path())
        let queue = DispatchQueue(label: "test.connectivity")
        let flags = Recorder<ReachabilityFlags>()
        let paths = Recorder<NetworkPath>()
        core.setFlagsHandler { flags.append($0) }
        core.pathHandler = { paths.append($0) }
        core.setQueue(queue)
        let prober = ConnectivityProber(probe: try ConnectivityProbe(url: "http://192.0.2.1/"), namespace: .current, passive: true)
        core.setConnectivityProber(prober)
        let (firstEpoch, _) = try XCTUnwrap(core.connectivityEpoch())
        // When: the answer for the first path arrives, then the path moves, then the old answer arrives again
        core.applyConnectivity(Self.answer, epoch: firstEpoch)
        core.publish(Self.path(gateway: "10.0.0.254")).deliver()
        core.applyConnectivity(Self.answer, epoch: firstEpoch)
        queue.sync {}
        // Then: unknown, portal, then unknown for the moved path; the stale answer is dropped
        XCTAssertEqual(paths.values.map(\.connectivity), [.unknown, .portal, .unknown])
        XCTAssertEqual(paths.values[1].portalURL, "http://portal/")
        XCTAssertEqual(paths.values.last?.gateways.map(\.addressString), ["10.0.0.254"], "the answer never brings an older engine path back")
        XCTAssertEqual(flags.values, [[.reachable]], "connectivity changes fire no flags callback")
        // When: the path is no longer satisfied: none at once
        core.publish(Self.path(satisfied: false)).deliver()
        queue.sync {}
        XCTAssertEqual(core.current.connectivity, .none)
        XCTAssertNil(core.connectivityEpoch(), "no probe is wanted for an unsatisfied path")
        core.setQueue(nil)
    }

    /// A new announced API on the same network keeps the last answer until the new API's comes
    /// (an announcer on the link cannot pin connectivity at `unknown`); another gateway drops it.
    func testNewAnnouncedAPI_keepsTheLastAnswer_untilItsOwn_butAMovedPathDropsIt() throws {
        let core = MonitorCore(target: .general(.none), initial: Self.path())
        let queue = DispatchQueue(label: "test.connectivity.api")
        let paths = Recorder<NetworkPath>()
        core.pathHandler = { paths.append($0) }
        core.setQueue(queue)
        core.setConnectivityProber(ConnectivityProber(probe: nil, namespace: .current, passive: true, fetchesAPIAlone: true))
        core.applyConnectivity(Self.answer, epoch: try XCTUnwrap(core.connectivityEpoch()).0)
        var announced = Self.path()
        announced.captivePortalAPI = "https://api.example/1"
        core.publish(announced).deliver()
        let (epoch, key) = try XCTUnwrap(core.connectivityEpoch())
        XCTAssertEqual(key.captivePortalAPI, "https://api.example/1", "the new API is asked for")
        queue.sync {}
        XCTAssertEqual(paths.values.last?.connectivity, .portal, "the last answer stays meanwhile")
        XCTAssertEqual(paths.values.last?.captivePortalAPI, "https://api.example/1")
        XCTAssertEqual(core.current.connectivitySource, .probe("http://x/"), "its source says where it came from")
        let full = ConnectivityAnswer(connectivity: .full, source: .captivePortalAPI("https://api.example/1"), detail: "captive: false")
        core.applyConnectivity(full, epoch: epoch)
        queue.sync {}
        XCTAssertEqual(paths.values.map(\.connectivity), [.unknown, .portal, .portal, .full])
        var moved = Self.path(gateway: "10.0.0.254")
        moved.captivePortalAPI = "https://api.example/1"
        core.publish(moved).deliver()
        queue.sync {}
        XCTAssertEqual(paths.values.last?.connectivity, .unknown, "another network: the answer goes")
        core.setQueue(nil)
    }

    func testWithoutAProber_connectivityIsUnknown_andNothingIsAsked() {
        let core = MonitorCore(target: .general(.none), initial: Self.path())
        XCTAssertNil(core.publish(Self.path()).delivery)
        XCTAssertEqual(core.current.connectivity, .unknown)
        XCTAssertEqual(core.current.connectivity, .unknown)
        XCTAssertNil(core.connectivityEpoch(evenIfIdle: true))
    }
}
