import XCTest
import ReachabilityEvaluation
import ReachabilityModel

/// One-target passes hand out an earlier equal path's storage: equal values, one box.
final class RecentPathsTests: XCTestCase {
    private func path(_ gateway: String) -> NetworkPath {
        let eth0 = NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)
        return NetworkPath(status: .satisfied, unsatisfiedReason: nil, flags: [.reachable], interface: eth0,
                           availableInterfaces: [eth0], gateways: [Fixture.ip(gateway)], isExpensive: false,
                           isConstrained: false, supportsIPv4: true, supportsIPv6: false, supportsDNS: true)
    }

    func testAnEqualPath_getsTheFirstOnesStorage_andADifferentOneKeepsItsOwn() {
        var recent = RecentPaths()
        let first = recent.interned(path("192.0.2.1"))
        let again = path("192.0.2.1")
        XCTAssertFalse(again.sharesStorage(with: first))
        let interned = recent.interned(again)
        XCTAssertTrue(interned.sharesStorage(with: first))
        XCTAssertEqual(interned, again)
        let other = recent.interned(path("192.0.2.9"))
        XCTAssertEqual(other.gateways, [Fixture.ip("192.0.2.9")])
        XCTAssertFalse(other.sharesStorage(with: first))
    }

    func testOnlyTheLastFewAreKept() {
        var recent = RecentPaths()
        let oldest = recent.interned(path("192.0.2.1"))
        for host in 2...RecentPaths.capacity { _ = recent.interned(path("192.0.2.\(host)")) }
        XCTAssertTrue(recent.interned(path("192.0.2.1")).sharesStorage(with: oldest), "still among the last \(RecentPaths.capacity)")
        _ = recent.interned(path("192.0.2.100"))
        _ = recent.interned(path("192.0.2.101"))
        XCTAssertFalse(recent.interned(path("192.0.2.1")).sharesStorage(with: oldest), "pushed out, made anew")
    }
}
