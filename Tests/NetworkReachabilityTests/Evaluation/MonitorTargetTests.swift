import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// How targets print: what `reachability` shows as the target.
final class MonitorTargetTests: XCTestCase {
    func testDescription() {
        XCTAssertEqual(MonitorTarget.general(.none).description, "*")
        XCTAssertEqual(MonitorTarget.address(Fixture.ip("192.0.2.1")).description, "192.0.2.1")
        XCTAssertEqual(MonitorTarget.address(Fixture.ip("fe80::1%eth0")).description, "fe80::1%eth0")
        XCTAssertEqual(MonitorTarget.address(Fixture.ip("::")).description, "::")
        XCTAssertEqual(MonitorTarget.pair(local: Fixture.ip("10.0.0.2"), remote: Fixture.ip("192.0.2.1")).description,
                       "10.0.0.2->192.0.2.1")
        XCTAssertEqual(MonitorTarget.pair(local: nil, remote: Fixture.ip("192.0.2.1")).description, "*->192.0.2.1")
        XCTAssertEqual(MonitorTarget.pair(local: Fixture.ip("10.0.0.2"), remote: nil).description, "10.0.0.2->*")
    }

    func testRouteQuestions_areHashableSoTargetsShareLookups() {
        let a = RouteQuestion.destination(RouteRequest(destination: Fixture.ip("192.0.2.1")))
        let b = RouteQuestion.destination(RouteRequest(destination: Fixture.ip("192.0.2.1")))
        let c = RouteQuestion.destination(RouteRequest(destination: Fixture.ip("192.0.2.1"), outputInterface: 2))
        XCTAssertEqual(Set([a, b, c, .defaultRoute(.ipv4), .defaultRoute(.ipv4), .defaultRoute(.ipv6)]).count, 4)
    }
}
