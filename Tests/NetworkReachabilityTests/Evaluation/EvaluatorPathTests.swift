import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// The paths the evaluator makes from the kernel's answers: semantics.md, "From the kernel to the
/// flags" (status, interface, gateways, expensive), "The general path" (the better family wins)
/// and the available interfaces.
final class EvaluatorPathTests: XCTestCase {
    private typealias F = Fixture

    // MARK: - Paths

    func testEvaluate_pathOfAReachableAddress() {
        // Given: 192.0.2.1 via 10.0.0.1 dev eth0
        let snapshot = EvaluatorTests.snapshotWithEth0
        let target = MonitorTarget.address(F.ip("192.0.2.1"))
        // When
        let path = Evaluator.evaluate(target, questions: Evaluator.questions(for: target, in: snapshot),
                                      answers: [F.route(dev: 2, via: ["10.0.0.1"])], in: snapshot, nameServers: .global)
        // Then
        XCTAssertEqual(path.status, .satisfied)
        XCTAssertNil(path.unsatisfiedReason)
        XCTAssertEqual(path.flags, [.reachable])
        XCTAssertEqual(path.reachabilityStatus, .reachableViaWiFi)
        XCTAssertEqual(path.interface, NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet))
        XCTAssertEqual(path.gateways.map(\.addressString), ["10.0.0.1"])
        XCTAssertEqual(path.availableInterfaces.map(\.name), ["eth0"])
        XCTAssertFalse(path.isExpensive)
        XCTAssertFalse(path.isConstrained)
        XCTAssertTrue(path.supportsIPv4)
        XCTAssertFalse(path.supportsIPv6, "an address target speaks only for its own family")
        XCTAssertTrue(path.supportsDNS)
        XCTAssertTrue(path.usesInterfaceType(.wiredEthernet))
        XCTAssertFalse(path.usesInterfaceType(.wifi))
    }

    func testEvaluate_statusMapping() {
        let snapshot = F.snapshot([F.link(2, "eth0"), F.link(3, "eth1", operstate: .down), F.link(4, "eth2", flags: [])])
        let target = MonitorTarget.address(F.ip("2001:db8::1"))
        let cases: [(RouteAnswer, NetworkPath.Status, NetworkPath.UnsatisfiedReason?)] = [
            (F.route(dev: 2), .satisfied, nil),
            (F.route(dev: 3), .unsatisfied, .noCarrier),
            (F.route(dev: 4), .unsatisfied, .interfaceDown),
            (.failure(errno: ENETUNREACH), .unsatisfied, .noRoute),
            (F.route(.blackhole, dev: nil), .unsatisfied, .blackholeRoute),
        ]
        for (answer, status, reason) in cases {
            let path = Evaluator.evaluate(target, questions: Evaluator.questions(for: target, in: snapshot),
                                          answers: [answer], in: snapshot, nameServers: .none)
            XCTAssertEqual(path.status, status, "\(answer)")
            XCTAssertEqual(path.unsatisfiedReason, reason, "\(answer)")
            XCTAssertEqual(path.supportsIPv6, status == .satisfied, "\(answer)")
            XCTAssertFalse(path.supportsIPv4, "\(answer)")
            XCTAssertFalse(path.supportsDNS)
        }
    }

    func testEvaluate_withoutCarrier_isUnsatisfied_keepsInterfaceAndGateway_usesNoInterfaceType() {
        let snapshot = F.snapshot([F.link(2, "eth0", operstate: .lowerLayerDown)], addresses: [(2, "10.0.0.2")])
        let target = MonitorTarget.address(F.ip("192.0.2.1"))
        let path = Evaluator.evaluate(target, questions: Evaluator.questions(for: target, in: snapshot),
                                      answers: [F.route(dev: 2, via: ["10.0.0.1"])], in: snapshot, nameServers: .global)
        XCTAssertEqual(path.status, .unsatisfied)
        XCTAssertEqual(path.unsatisfiedReason, .noCarrier)
        XCTAssertEqual(path.flags, [.reachable, .connectionRequired])
        XCTAssertEqual(path.reachabilityStatus, .notReachable)
        XCTAssertEqual(path.interface?.name, "eth0")
        for type in NetworkInterface.InterfaceType.allCases {
            XCTAssertFalse(path.usesInterfaceType(type), "no interface carries an unsatisfied path: \(type)")
        }
        XCTAssertEqual(path.gateways.map(\.addressString), ["10.0.0.1"])
        XCTAssertEqual(path.availableInterfaces, [], "a link without carrier is not available")
        XCTAssertFalse(path.supportsIPv4)
    }

    func testEvaluate_cellular_isExpensiveAndWWAN() {
        let snapshot = F.snapshot([F.link(5, "wwan0", hardwareType: 519)], addresses: [(5, "100.64.0.2")])
        let target = MonitorTarget.address(F.ip("192.0.2.1"))
        let path = Evaluator.evaluate(target, questions: Evaluator.questions(for: target, in: snapshot),
                                      answers: [F.route(dev: 5, via: ["100.64.0.1"])], in: snapshot, nameServers: .global)
        XCTAssertEqual(path.flags, [.reachable, .isWWAN, .transientConnection])
        XCTAssertEqual(path.reachabilityStatus, .reachableViaWWAN)
        XCTAssertTrue(path.isExpensive)
        XCTAssertTrue(path.usesInterfaceType(.cellular))
        XCTAssertEqual(path.interface, NetworkInterface(name: "wwan0", index: 5, type: .cellular, isExpensive: true))
    }

    func testEvaluate_zeroAddress_isTheDefaultRouteOfItsFamilyOnly() {
        let snapshot = EvaluatorTests.snapshotWithEth0
        let target = MonitorTarget.address(F.ip("0.0.0.0"))
        let questions = Evaluator.questions(for: target, in: snapshot)
        let path = Evaluator.evaluate(target, questions: questions, answers: [F.route(dev: 2, via: ["10.0.0.1"], prefixLength: 0)],
                                      in: snapshot, nameServers: .global)
        XCTAssertEqual(path.flags, [.reachable], "never isDirect through a gateway")
        XCTAssertTrue(path.supportsIPv4)
        XCTAssertFalse(path.supportsIPv6)
    }

    func testEvaluate_zeroAddressWithOnLinkDefault_isDirect() {
        // default dev ppp0
        let snapshot = F.snapshot([F.link(3, "ppp0", flags: [.up, .running, .lowerUp, .pointToPoint], hardwareType: 512)],
                                  addresses: [(3, "10.64.0.2")])
        let target = MonitorTarget.address(F.ip("0.0.0.0"))
        let path = Evaluator.evaluate(target, questions: Evaluator.questions(for: target, in: snapshot),
                                      answers: [F.route(dev: 3, prefixLength: 0)], in: snapshot, nameServers: .global)
        XCTAssertEqual(path.flags, [.reachable, .transientConnection, .isDirect])
        XCTAssertEqual(path.status, .satisfied)
    }

    func testEvaluate_zeroAddressWithUnreachableDefault_hasNoFlags() {
        let target = MonitorTarget.address(F.ip("::"))
        let path = Evaluator.evaluate(target, questions: Evaluator.questions(for: target, in: EvaluatorTests.snapshotWithEth0),
                                      answers: [.failure(errno: EHOSTUNREACH)], in: EvaluatorTests.snapshotWithEth0, nameServers: .global)
        XCTAssertEqual(path.flags, [])
        XCTAssertEqual(path.unsatisfiedReason, .unreachableRoute)
    }

    // MARK: - The general path: the better family wins

    private func generalPath(_ v4: RouteAnswer, _ v6: RouteAnswer, in snapshot: KernelSnapshot) -> NetworkPath {
        let questions = Evaluator.questions(for: .general(.none), in: snapshot)
        XCTAssertEqual(questions, [.defaultRoute(.ipv4), .defaultRoute(.ipv6)])
        return Evaluator.evaluate(.general(.none), questions: questions, answers: [v4, v6], in: snapshot, nameServers: .global)
    }

    private static let twoLinks = F.snapshot(
        [F.loopback, F.link(2, "eth0"), F.link(3, "eth1", operstate: .down)],
        addresses: [(1, "127.0.0.1"), (2, "10.0.0.2"), (2, "2001:db8::2"), (3, "10.1.0.2")])

    func testGeneralPath_onlyIPv6Works_IPv6Wins() {
        let path = generalPath(.failure(errno: ENETUNREACH), F.route(dev: 2, via: ["fe80::1"], prefixLength: 0), in: Self.twoLinks)
        XCTAssertEqual(path.status, .satisfied)
        XCTAssertEqual(path.flags, [.reachable])
        XCTAssertEqual(path.gateways.map(\.addressString), ["fe80::1"])
        XCTAssertFalse(path.supportsIPv4)
        XCTAssertTrue(path.supportsIPv6)
    }

    func testGeneralPath_bothWork_IPv4WinsTheTie() {
        let path = generalPath(F.route(dev: 2, via: ["10.0.0.1"], prefixLength: 0),
                               F.route(dev: 2, via: ["fe80::1"], prefixLength: 0), in: Self.twoLinks)
        XCTAssertEqual(path.gateways.map(\.addressString), ["10.0.0.1"])
        XCTAssertTrue(path.supportsIPv4)
        XCTAssertTrue(path.supportsIPv6)
    }

    func testGeneralPath_reachableBeatsConnectionRequired() {
        let path = generalPath(F.route(dev: 3, via: ["10.1.0.1"], prefixLength: 0),
                               F.route(dev: 2, via: ["fe80::1"], prefixLength: 0), in: Self.twoLinks)
        XCTAssertEqual(path.status, .satisfied)
        XCTAssertEqual(path.interface?.name, "eth0")
        XCTAssertFalse(path.supportsIPv4)
        XCTAssertTrue(path.supportsIPv6)
    }

    func testGeneralPath_connectionRequiredBeatsNothing() {
        let path = generalPath(.failure(errno: ENETUNREACH), F.route(dev: 3, via: ["fe80::1"], prefixLength: 0), in: Self.twoLinks)
        XCTAssertEqual(path.status, .unsatisfied)
        XCTAssertEqual(path.unsatisfiedReason, .noCarrier)
        XCTAssertEqual(path.flags, [.reachable, .connectionRequired])
        XCTAssertFalse(path.supportsIPv4)
        XCTAssertFalse(path.supportsIPv6)
    }

    func testGeneralPath_neitherWorks_isNoRoute() {
        let path = generalPath(.failure(errno: ENETUNREACH), .failure(errno: ENETUNREACH), in: Self.twoLinks)
        XCTAssertEqual(path.status, .unsatisfied)
        XCTAssertEqual(path.unsatisfiedReason, .noRoute)
        XCTAssertEqual(path.flags, [])
        XCTAssertNil(path.interface)
        XCTAssertEqual(path.availableInterfaces.map(\.name), ["eth0"], "available interfaces do not depend on the route")
    }

    /// A family whose route refused says more than one with no route at all, whichever family it is.
    func testGeneralPath_neitherWorks_theRouteThatRefusedNamesTheReason() {
        let cases: [(RouteAnswer, RouteAnswer, NetworkPath.UnsatisfiedReason)] = [
            (.failure(errno: ENETUNREACH), .failure(errno: EHOSTUNREACH), .unreachableRoute),
            (.failure(errno: EACCES), .failure(errno: ENETUNREACH), .prohibitedRoute),
            (.failure(errno: ENETUNREACH), .failure(errno: EINVAL), .blackholeRoute),
            (.failure(errno: EACCES), .failure(errno: EINVAL), .prohibitedRoute),
        ]
        for (ipv4, ipv6, reason) in cases {
            let path = generalPath(ipv4, ipv6, in: Self.twoLinks)
            XCTAssertEqual(path.status, .unsatisfied)
            XCTAssertEqual(path.unsatisfiedReason, reason, "\(ipv4), \(ipv6)")
            XCTAssertEqual(path.flags, [])
            XCTAssertNil(path.interface)
            XCTAssertEqual(path.gateways.map(\.addressString), [])
        }
    }

    // MARK: - Available interfaces

    private static let manyLinks = F.snapshot(
        [
            F.loopback,
            F.link(2, "eth0"),
            F.link(3, "eth1"),
            F.link(4, "eth2", operstate: .down),  // no carrier
            F.link(5, "eth3", flags: []),  // admin down
            F.link(6, "eth4"),  // no address
            F.link(7, "wwan0", hardwareType: 519),
        ],
        addresses: [(1, "127.0.0.1"), (2, "10.0.0.2"), (3, "10.1.0.2"), (4, "10.2.0.2"), (5, "10.3.0.2"), (7, "100.64.0.2")])

    private func available(for target: MonitorTarget, answer: RouteAnswer) -> [String] {
        Evaluator.evaluate(target, questions: Evaluator.questions(for: target, in: Self.manyLinks),
                           answers: [answer], in: Self.manyLinks, nameServers: .global).availableInterfaces.map(\.name)
    }

    func testAvailableInterfaces_upCarrierAndAddress_byIndex() {
        XCTAssertEqual(available(for: .address(F.ip("192.0.2.1")), answer: .failure(errno: ENETUNREACH)), ["eth0", "eth1", "wwan0"])
    }

    func testAvailableInterfaces_theRoutesInterfaceFirst() {
        XCTAssertEqual(available(for: .address(F.ip("192.0.2.1")), answer: F.route(dev: 3, via: ["10.1.0.1"])), ["eth1", "eth0", "wwan0"])
        XCTAssertEqual(available(for: .address(F.ip("192.0.2.1")), answer: F.route(dev: 7)), ["wwan0", "eth0", "eth1"])
    }

    func testAvailableInterfaces_loopbackOnlyWhenTheTargetsRouteUsesIt() {
        XCTAssertEqual(available(for: .address(F.ip("127.0.0.1")), answer: F.route(.local, dev: 1)), ["lo", "eth0", "eth1", "wwan0"])
        XCTAssertEqual(available(for: .address(F.ip("10.0.0.2")), answer: F.route(.local, dev: 2)), ["eth0", "eth1", "wwan0"])
    }

    private static let withContainerVeths = F.snapshot(
        [F.loopback, F.link(2, "eth0"), F.link(8, "veth8"), F.link(9, "cali9")],
        addresses: [(1, "127.0.0.1"), (2, "10.0.0.2"), (2, "fe80::2"), (8, "fe80::8"), (9, "fe80::9")])

    func testAvailableInterfaces_leaveOutLinksWithOnlyLinkLocalAddresses() {
        // Decision (o): a container's host-side veth comes and goes without moving anyone's path.
        let target = MonitorTarget.address(F.ip("192.0.2.1"))
        let path = Evaluator.evaluate(target, questions: Evaluator.questions(for: target, in: Self.withContainerVeths),
                                      answers: [F.route(dev: 2, via: ["10.0.0.1"])], in: Self.withContainerVeths, nameServers: .global)
        XCTAssertEqual(path.availableInterfaces.map(\.name), ["eth0"])
    }

    func testAvailableInterfaces_listALinkLocalOnlyLinkWhenTheRouteUsesIt() {
        // A /32 to a pod over its link-local-only veth (Calico's layout): the path's own interface is listed first.
        let target = MonitorTarget.address(F.ip("10.244.1.9"))
        let path = Evaluator.evaluate(target, questions: Evaluator.questions(for: target, in: Self.withContainerVeths),
                                      answers: [F.route(dev: 9)], in: Self.withContainerVeths, nameServers: .global)
        XCTAssertEqual(path.interface?.name, "cali9")
        XCTAssertEqual(path.availableInterfaces.map(\.name), ["cali9", "eth0"])
    }

    func testAvailableInterfaces_carryTheirTypes() {
        let path = Evaluator.evaluate(.address(F.ip("127.0.0.1")), questions: [.destination(RouteRequest(destination: F.ip("127.0.0.1")))],
                                      answers: [F.route(.local, dev: 1)], in: Self.manyLinks, nameServers: .global)
        XCTAssertEqual(path.availableInterfaces, [
            NetworkInterface(name: "lo", index: 1, type: .loopback),
            NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet),
            NetworkInterface(name: "eth1", index: 3, type: .wiredEthernet),
            NetworkInterface(name: "wwan0", index: 7, type: .cellular, isExpensive: true),
        ])
        XCTAssertEqual(path.interface, NetworkInterface(name: "lo", index: 1, type: .loopback))
        XCTAssertEqual(path.flags, [.reachable, .isLocalAddress, .isDirect])
    }

    func testAvailableLinks_theSameWhetherAddressesAreScannedOrCollectedInASet() {
        // Up to 64 addresses are scanned in place, more go through a set of indexes: one answer
        var crowded = Self.withContainerVeths
        crowded.addresses += (10..<80).map {
            InterfaceAddress(interfaceIndex: 8, address: F.ip("fe80::\($0)"), prefixLength: 64, scope: InterfaceAddress.linkScope)
        }
        XCTAssertGreaterThan(crowded.addresses.count, 64)
        XCTAssertEqual(Evaluator.availableLinks(in: Self.withContainerVeths).map(\.name), ["eth0"])
        XCTAssertEqual(Evaluator.availableLinks(in: crowded).map(\.name), ["eth0"])
        crowded.addresses.append(InterfaceAddress(interfaceIndex: 9, address: F.ip("10.244.0.1"), prefixLength: 24))
        XCTAssertEqual(Evaluator.availableLinks(in: crowded).map(\.name), ["eth0", "cali9"])
    }
}
