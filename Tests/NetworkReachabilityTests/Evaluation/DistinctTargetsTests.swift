import XCTest
import ReachabilityEvaluation
import ReachabilityModel

/// A pass evaluates each distinct target once: which targets it keeps, and which each monitor gets.
final class DistinctTargetsTests: XCTestCase {
    func testEqualTargets_shareOneSlot_inOrderOfFirstAppearance() {
        let a = MonitorTarget.address(Fixture.ip("192.0.2.1"))
        let b = MonitorTarget.address(Fixture.ip("192.0.2.2"))
        let scoped = MonitorTarget.address(Fixture.ip("fe80::1%eth0"))
        let unscoped = MonitorTarget.address(Fixture.ip("fe80::1"))
        let general = MonitorTarget.general(.none)
        let distinct = DistinctTargets([b, a, b, general, scoped, unscoped, a, general, .host("example.org"), .host("example.org")])
        XCTAssertEqual(distinct.targets, [b, a, general, scoped, unscoped, .host("example.org")])
        XCTAssertEqual(distinct.slots, [0, 1, 0, 2, 3, 4, 1, 2, 5, 5])
    }

    func testTenThousandMonitorsOfOneDestination_areOneTarget() {
        let one = MonitorTarget.address(Fixture.ip("10.1.1.1"))
        let distinct = DistinctTargets(Array(repeating: one, count: 10_000))
        XCTAssertEqual(distinct.targets, [one])
        XCTAssertEqual(Set(distinct.slots), [0])
        XCTAssertEqual(distinct.slots.count, 10_000)
    }
}
