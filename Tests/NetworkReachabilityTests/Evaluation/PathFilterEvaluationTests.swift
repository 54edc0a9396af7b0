import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// `PathMonitor(requiredInterfaceType:prohibitedInterfaceTypes:)` over synthetic state: which
/// restricted lookups are asked, and what their answers make of the path (issue 4, item 4).
final class PathFilterEvaluationTests: XCTestCase {
    private typealias F = Fixture

    /// lo (1), eth0 (2, Ethernet), wlan0 (3, Wi-Fi by DEVTYPE), tun0 (4, other), wwan0 (5, cellular),
    /// eth1 (6, Ethernet, administratively down).
    private static let snapshot: KernelSnapshot = {
        var wlan = F.link(3, "wlan0", kind: "veth")
        wlan.traits.deviceType = "wlan"
        return F.snapshot(
            [F.loopback, F.link(2, "eth0"), wlan,
             F.link(4, "tun0", flags: [.up, .pointToPoint, .lowerUp], hardwareType: 65534, kind: "tun"),
             F.link(5, "wwan0", hardwareType: 519), F.link(6, "eth1", flags: [])],
            addresses: [(1, "127.0.0.1"), (2, "10.0.0.2"), (3, "10.1.0.2"), (4, "10.2.0.2"), (5, "100.64.0.2"), (6, "10.3.0.2")])
    }()

    private func filter(_ required: NetworkInterface.InterfaceType? = nil, _ prohibited: Set<NetworkInterface.InterfaceType> = []) -> MonitorTarget {
        .general(InterfaceFilter(required: required, prohibited: prohibited))
    }

    private func restrictedInterfaces(_ target: MonitorTarget) -> [[Int?]] {
        let questions = Evaluator.questions(for: target, in: Self.snapshot) ?? []
        return [IPAddress.Family.ipv4, .ipv6].map { family in
            questions.filter { $0.family == family }.map { question -> Int? in
                if case .defaultRoute(_, let outputInterface) = question { return outputInterface }
                return -1
            }
        }
    }

    func testAllows() {
        XCTAssertTrue(InterfaceFilter.none.allows(.wifi))
        XCTAssertTrue(InterfaceFilter(required: .wifi).allows(.wifi))
        XCTAssertFalse(InterfaceFilter(required: .wifi).allows(.cellular))
        XCTAssertFalse(InterfaceFilter(prohibited: [.cellular]).allows(.cellular))
        XCTAssertTrue(InterfaceFilter(prohibited: [.cellular]).allows(.loopback))
        XCTAssertFalse(InterfaceFilter(required: .wifi, prohibited: [.wifi]).allows(.wifi), "prohibition wins")
        XCTAssertTrue(InterfaceFilter(prohibited: []).isEmpty)
    }

    func testQuestions_unfiltered_areTheUnrestrictedDefaultRoutes() {
        XCTAssertEqual(Evaluator.questions(for: filter(), in: Self.snapshot), [.defaultRoute(.ipv4), .defaultRoute(.ipv6)])
    }

    func testQuestions_required_restrictEachFamilyToEveryUpInterfaceOfThatType() {
        XCTAssertEqual(restrictedInterfaces(filter(.wifi)), [[3], [3]])
        XCTAssertEqual(restrictedInterfaces(filter(.other)), [[4], [4]])
        XCTAssertEqual(restrictedInterfaces(filter(.cellular)), [[5], [5]])
        XCTAssertEqual(restrictedInterfaces(filter(.wiredEthernet)), [[2], [2]], "eth1 is down: not asked")
    }

    func testQuestions_prohibited_restrictToEveryOtherUpInterface() {
        XCTAssertEqual(restrictedInterfaces(filter(nil, [.wiredEthernet])), [[1, 3, 4, 5], [1, 3, 4, 5]])
        XCTAssertEqual(restrictedInterfaces(filter(nil, [.cellular, .loopback, .other])), [[2, 3], [2, 3]])
    }

    func testVerdict_noAllowedInterface_isRequiredInterfaceUnavailable() {
        let target = filter(.wifi, [.wifi])
        XCTAssertEqual(Evaluator.questions(for: target, in: Self.snapshot), [])
        let path = Evaluator.evaluate(target, questions: [], answers: [], in: Self.snapshot, nameServers: .global)
        XCTAssertEqual(path.status, .unsatisfied)
        XCTAssertEqual(path.unsatisfiedReason, .requiredInterfaceUnavailable)
        XCTAssertEqual(path.flags, [])
        XCTAssertNil(path.interface)
    }

    func testVerdict_allowedInterfacesWithoutARoute_isRequiredInterfaceUnavailable() {
        let target = filter(.wifi)
        let questions = Evaluator.questions(for: target, in: Self.snapshot)
        let answers = [RouteAnswer](repeating: .failure(errno: ENETUNREACH), count: questions?.count ?? 0)
        let path = Evaluator.evaluate(target, questions: questions, answers: answers, in: Self.snapshot, nameServers: .global)
        XCTAssertEqual(path.unsatisfiedReason, .requiredInterfaceUnavailable, "\(path)")
        XCTAssertFalse(path.supportsIPv4)
        XCTAssertFalse(path.supportsIPv6)
    }

    func testVerdict_requiredWiFi_isSatisfiedOverWiFi() {
        let target = filter(.wifi)
        let questions = Evaluator.questions(for: target, in: Self.snapshot)
        let path = Evaluator.evaluate(target, questions: questions,
                                      answers: [F.route(dev: 3, via: ["10.1.0.1"]), .failure(errno: ENETUNREACH)],
                                      in: Self.snapshot, nameServers: .global)
        XCTAssertEqual(path.status, .satisfied, "\(path)")
        XCTAssertEqual(path.interface?.name, "wlan0")
        XCTAssertTrue(path.usesInterfaceType(.wifi))
        XCTAssertEqual(path.gateways.map(\.addressString), ["10.1.0.1"])
        XCTAssertTrue(path.supportsIPv4)
        XCTAssertFalse(path.supportsIPv6)
    }

    /// Only a connection-required route on the allowed interface: no carrier (that is not
    /// "unavailable": the interface is there, waiting for carrier).
    func testVerdict_requiredTypeWithoutCarrier_isUnsatisfiedWithNoCarrier() {
        var snapshot = Self.snapshot
        snapshot.links[4]?.flags = [.up, .pointToPoint]
        snapshot.links[4]?.operationalState = .down
        let target = filter(.other)
        let path = Evaluator.evaluate(target, questions: Evaluator.questions(for: target, in: snapshot),
                                      answers: [F.route(dev: 4), .failure(errno: ENETUNREACH)], in: snapshot, nameServers: .global)
        XCTAssertEqual(path.status, .unsatisfied, "\(path)")
        XCTAssertEqual(path.unsatisfiedReason, .noCarrier, "\(path)")
        XCTAssertEqual(path.flags, [.reachable, .connectionRequired, .transientConnection, .isDirect])
    }

    /// Several allowed interfaces: the best verdict wins, then the lower metric.
    func testVerdict_severalAllowed_bestThenLowestMetric() {
        let target = filter(nil, [.wiredEthernet, .loopback])
        let questions = Evaluator.questions(for: target, in: Self.snapshot) ?? []
        func route(_ dev: Int, metric: UInt32) -> RouteAnswer {
            guard case .route(var entry) = F.route(dev: dev, via: ["192.0.2.1"]) else { return .failure(errno: EINVAL) }
            entry.metric = metric
            return .route(entry)
        }
        // ipv4: wlan0 (3) metric 600, tun0 (4) metric 50, wwan0 (5) metric 700; ipv6: nothing
        let answers = questions.map { question -> RouteAnswer in
            guard case .defaultRoute(.ipv4, let oif?) = question else { return .failure(errno: ENETUNREACH) }
            return route(oif, metric: [3: 600, 4: 50, 5: 700][oif] ?? 0)
        }
        let path = Evaluator.evaluate(target, questions: questions, answers: answers, in: Self.snapshot, nameServers: .global)
        XCTAssertEqual(path.interface?.name, "tun0", "\(path)")
    }
}
