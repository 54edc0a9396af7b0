import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// The plain values the Netlink layer fills: link state, address ownership, route types.
final class KernelSnapshotTests: XCTestCase {
    private typealias F = Fixture

    func testLinkFlags_haveTheKernelsBitValues() {
        XCTAssertEqual(LinkState.Flags.up.rawValue, 0x1)  // IFF_UP
        XCTAssertEqual(LinkState.Flags.loopback.rawValue, 0x8)  // IFF_LOOPBACK
        XCTAssertEqual(LinkState.Flags.pointToPoint.rawValue, 0x10)  // IFF_POINTOPOINT
        XCTAssertEqual(LinkState.Flags.running.rawValue, 0x40)  // IFF_RUNNING
        XCTAssertEqual(LinkState.Flags.lowerUp.rawValue, 0x10000)  // IFF_LOWER_UP
        XCTAssertEqual(LinkState.Flags.dormant.rawValue, 0x20000)  // IFF_DORMANT
    }

    func testOperationalState_rawValuesAndNames() {
        let expected: [(UInt8, LinkState.OperationalState, String)] = [
            (0, .unknown, "unknown"), (1, .notPresent, "notpresent"), (2, .down, "down"),
            (3, .lowerLayerDown, "lowerlayerdown"), (4, .testing, "testing"), (5, .dormant, "dormant"), (6, .up, "up"),
        ]
        for (raw, state, name) in expected {
            XCTAssertEqual(LinkState.OperationalState(rawValue: raw), state)
            XCTAssertEqual(state.name, name)
        }
        XCTAssertNil(LinkState.OperationalState(rawValue: 7))
    }

    func testHasCarrier_needsLowerUpAndAnOperstateThatIsNotDown() {
        let table: [(LinkState.Flags, LinkState.OperationalState, Bool)] = [
            ([.up, .running, .lowerUp], .up, true),
            ([.up, .running, .lowerUp], .unknown, true),  // lo, vxlan
            ([.up, .running, .lowerUp], .testing, true),
            ([.up, .running, .lowerUp], .dormant, true),  // carrier, but waiting: isDormant says so
            ([.up, .running, .lowerUp], .down, false),
            ([.up, .running, .lowerUp], .lowerLayerDown, false),
            ([.up, .running, .lowerUp], .notPresent, false),
            ([.up, .running], .up, false),
            ([.up], .unknown, false),
            ([.lowerUp], .up, true),  // carrier says nothing of the admin state
        ]
        for (flags, operstate, expected) in table {
            XCTAssertEqual(F.link(flags: flags, operstate: operstate).hasCarrier, expected, "\(flags.rawValue) \(operstate.name)")
        }
    }

    func testDerivedLinkProperties() {
        let link = F.link(flags: [.up, .pointToPoint], operstate: .dormant)
        XCTAssertTrue(link.isUp)
        XCTAssertTrue(link.isPointToPoint)
        XCTAssertTrue(link.isDormant)
        XCTAssertFalse(link.isLoopback)
        XCTAssertFalse(F.link(flags: [.running, .lowerUp]).isUp)
        XCTAssertTrue(F.loopback.isLoopback)
        XCTAssertFalse(F.link(operstate: .up).isDormant)
    }

    func testOwns_comparesAddressAndFamily_ignoringScope() {
        let snapshot = F.snapshot([F.link()], addresses: [(2, "10.0.0.2"), (2, "fe80::2"), (2, "::")])
        XCTAssertTrue(snapshot.owns(F.ip("10.0.0.2")))
        XCTAssertTrue(snapshot.owns(F.ip("fe80::2%eth0")))
        XCTAssertTrue(snapshot.owns(F.ip("fe80::2%2")))
        XCTAssertFalse(snapshot.owns(F.ip("10.0.0.3")))
        XCTAssertFalse(snapshot.owns(F.ip("0.0.0.0")), ":: held is not 0.0.0.0 held")
        XCTAssertFalse(KernelSnapshot().owns(F.ip("127.0.0.1")))
    }

    func testLinkNamed_andIndexesWithRoutableAddress_leaveOutLinkAndHostScopes() {
        let snapshot = F.snapshot([F.loopback, F.link(2, "eth0"), F.link(3, "eth1"), F.link(4, "veth9")],
                                  addresses: [(1, "127.0.0.1"), (2, "2001:db8::2"), (3, "10.1.0.2"), (3, "10.1.0.3"), (4, "fe80::9")])
        XCTAssertEqual(snapshot.link(named: "eth1")?.index, 3)
        XCTAssertNil(snapshot.link(named: "eth9"))
        XCTAssertEqual(snapshot.indexesWithRoutableAddress, [2, 3],
                       "loopback's host-scoped and veth9's link-local address reach no further than their link")
    }

    func testRouteType_fromRtmType() {
        let expected: [(UInt8, RouteType)] = [
            (1, .unicast), (2, .local), (3, .broadcast), (4, .anycast), (5, .multicast), (6, .blackhole),
            (7, .unreachable), (8, .prohibit), (9, .throw), (0, .other(0)), (10, .other(10)), (11, .other(11)),
        ]
        for (raw, type) in expected {
            XCTAssertEqual(RouteType(rtnType: raw), type, "rtm_type \(raw)")
        }
    }

    func testRouteOfAnUnknownType_isTreatedLikeUnicast() {
        let snapshot = F.snapshot([F.link()])
        XCTAssertEqual(Evaluator.verdict(for: F.route(.other(10), dev: 2), in: snapshot).flags, [.reachable, .isDirect])
    }
}
