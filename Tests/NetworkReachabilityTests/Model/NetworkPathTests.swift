import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// `NetworkPath`: its words for `--json`, its one-line description, and what it derives from the flags.
final class NetworkPathTests: XCTestCase {
    private static let eth0 = NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)

    private func path(
        _ status: NetworkPath.Status = .satisfied, reason: NetworkPath.UnsatisfiedReason? = nil,
        flags: ReachabilityFlags = [.reachable, .isDirect], interface: NetworkInterface? = eth0,
        gateways: [String] = [], isExpensive: Bool = false, isConstrained: Bool = false,
        ipv4: Bool = false, ipv6: Bool = false, dns: Bool = false
    ) -> NetworkPath {
        NetworkPath(status: status, unsatisfiedReason: reason, flags: flags, interface: interface,
                    availableInterfaces: interface.map { [$0] } ?? [], gateways: gateways.map(Fixture.ip), isExpensive: isExpensive,
                    isConstrained: isConstrained, supportsIPv4: ipv4, supportsIPv6: ipv6, supportsDNS: dns)
    }

    func testStatusDescription() {
        XCTAssertEqual(NetworkPath.Status.satisfied.description, "satisfied")
        XCTAssertEqual(NetworkPath.Status.unsatisfied.description, "unsatisfied")
        XCTAssertEqual(NetworkPath.Status.requiresConnection.description, "requiresConnection")
    }

    func testUnsatisfiedReasonDescription_isTheCamelCaseWordOfJSON() {
        let expected: [(NetworkPath.UnsatisfiedReason, String)] = [
            (.noRoute, "noRoute"), (.unreachableRoute, "unreachableRoute"), (.prohibitedRoute, "prohibitedRoute"),
            (.blackholeRoute, "blackholeRoute"), (.noCarrier, "noCarrier"), (.interfaceDown, "interfaceDown"),
            (.localAddressUnavailable, "localAddressUnavailable"),
            (.requiredInterfaceUnavailable, "requiredInterfaceUnavailable"),
            (.nameNotResolved, "nameNotResolved"), (.noDNSServer, "noDNSServer"),
            (.namespaceUnavailable, "namespaceUnavailable"),
        ]
        for (reason, word) in expected {
            XCTAssertEqual(reason.description, word)
        }
    }

    func testDescription_ofASatisfiedPath() {
        let text = path(gateways: ["10.0.0.1"], ipv4: true, dns: true).description
        XCTAssertEqual(text, "satisfied via eth0 gw 10.0.0.1 flags -R ------d [ipv4 dns]")
    }

    func testDescription_ofAnUnsatisfiedPath() {
        let text = path(.unsatisfied, reason: .noRoute, flags: [], interface: nil).description
        XCTAssertEqual(text, "unsatisfied (noRoute) flags -- -------")
    }

    func testDescription_listsEveryTrait() {
        let text = path(.unsatisfied, reason: .noCarrier, flags: [.reachable, .connectionRequired, .isWWAN, .transientConnection],
                        gateways: ["10.0.0.1", "fe80::1"], isExpensive: true, isConstrained: true,
                        ipv4: true, ipv6: true, dns: true).description
        XCTAssertEqual(text, "unsatisfied (noCarrier) via eth0 gw 10.0.0.1,fe80::1 flags WR ct----- [ipv4 ipv6 dns expensive constrained]")
    }

    func testReachabilityStatus_followsTheFlags() {
        XCTAssertEqual(path(flags: [.reachable]).reachabilityStatus, .reachableViaWiFi)
        XCTAssertEqual(path(flags: [.reachable, .isWWAN]).reachabilityStatus, .reachableViaWWAN)
        XCTAssertEqual(path(flags: [.reachable, .connectionRequired]).reachabilityStatus, .notReachable)
        XCTAssertEqual(path(flags: []).reachabilityStatus, .notReachable)
    }

    func testUsesInterfaceType_isTheRoutesInterface() {
        XCTAssertTrue(path().usesInterfaceType(.wiredEthernet))
        XCTAssertFalse(path().usesInterfaceType(.wifi))
        XCTAssertFalse(path(interface: nil).usesInterfaceType(.wiredEthernet))
        let cellular = NetworkInterface(name: "wwan0", index: 5, type: .cellular)
        XCTAssertTrue(path(interface: cellular).usesInterfaceType(.cellular))
    }

    func testUnsatisfied_isAnEmptyPathWithItsReason() {
        let path = NetworkPath.unsatisfied(.namespaceUnavailable)
        XCTAssertEqual(path.status, .unsatisfied)
        XCTAssertEqual(path.unsatisfiedReason, .namespaceUnavailable)
        XCTAssertEqual(path.flags, [])
        XCTAssertEqual(path.reachabilityStatus, .notReachable)
        XCTAssertNil(path.interface)
        XCTAssertEqual(path.availableInterfaces, [])
        XCTAssertEqual(path.gateways.map(\.addressString), [])
        XCTAssertFalse(path.isExpensive || path.isConstrained || path.supportsIPv4 || path.supportsIPv6 || path.supportsDNS)
    }

    func testEquality_coversEveryField() {
        let base = path(gateways: ["10.0.0.1"], ipv4: true)
        XCTAssertEqual(base, path(gateways: ["10.0.0.1"], ipv4: true))
        XCTAssertNotEqual(base, path(gateways: ["10.0.0.2"], ipv4: true), "same flags, other gateway: another path")
        XCTAssertNotEqual(base, path(gateways: ["10.0.0.1"], ipv4: true, ipv6: true))
        XCTAssertNotEqual(base, path(gateways: ["10.0.0.1"], ipv4: true, dns: true))
        XCTAssertNotEqual(base, path(flags: [.reachable], gateways: ["10.0.0.1"], ipv4: true))
    }
}
