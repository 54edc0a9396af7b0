@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Which targets a route event can move: only those inside its prefix.
final class RoutePrefixTests: XCTestCase {
    private func prefix(_ text: String, _ length: Int) -> RoutePrefix {
        let address = try! IPAddress(text)
        return RoutePrefix(family: address.family, bytes: address.bytes, length: length)
    }

    func testContains_followsThePrefixLength_toTheBit() {
        XCTAssertTrue(prefix("10.1.0.0", 16).contains(try IPAddress("10.1.255.7")))
        XCTAssertFalse(prefix("10.1.0.0", 16).contains(try IPAddress("10.2.0.1")))
        XCTAssertTrue(prefix("192.0.2.128", 25).contains(try IPAddress("192.0.2.200")))
        XCTAssertFalse(prefix("192.0.2.128", 25).contains(try IPAddress("192.0.2.127")))
        XCTAssertTrue(prefix("0.0.0.0", 0).contains(try IPAddress("203.0.113.9")), "the default route covers everything")
        XCTAssertTrue(prefix("2001:db8::", 32).contains(try IPAddress("2001:db8:ffff::1")))
        XCTAssertFalse(prefix("2001:db8::", 33).contains(try IPAddress("2001:db8:8000::1")))
        XCTAssertFalse(prefix("0.0.0.0", 0).contains(try IPAddress("::1")), "families never mix")
    }

    func testAffects_destinationsInsideAnyPrefixOnly() {
        var changes = RouteChanges()
        changes.note(prefix("10.1.0.0", 16))
        let inside = RouteQuestion.destination(RouteRequest(destination: try! IPAddress("10.1.2.3")))
        let outside = RouteQuestion.destination(RouteRequest(destination: try! IPAddress("10.9.0.5")))
        XCTAssertTrue(changes.affects(inside))
        XCTAssertFalse(changes.affects(outside))
        XCTAssertFalse(changes.affectsDefaultRoutes, "no probe lies in 10.1.0.0/16")
    }

    func testAffects_defaultRoute_whenAPrefixCoversAProbe() {
        var changes = RouteChanges()
        changes.note(prefix("0.0.0.0", 0))
        XCTAssertTrue(changes.affects(.defaultRoute(.ipv4)))
        XCTAssertFalse(changes.affects(.defaultRoute(.ipv6)))
        XCTAssertTrue(changes.affectsDefaultRoutes)
        var split = RouteChanges()
        split.note(prefix("128.0.0.0", 1))  // a VPN's half of the internet
        XCTAssertTrue(split.affects(.defaultRoute(.ipv4, outputInterface: 3)))
    }

    func testBroadChanges_affectEverything_andTooManyPrefixesBecomeBroad() {
        var changes = RouteChanges()
        for third in 0...RouteChanges.prefixLimit {
            changes.note(prefix("10.\(third / 256).\(third % 256).0", 24))
        }
        XCTAssertTrue(changes.isBroad)
        XCTAssertTrue(changes.affects(.destination(RouteRequest(destination: try! IPAddress("172.16.0.1")))))
    }
}
