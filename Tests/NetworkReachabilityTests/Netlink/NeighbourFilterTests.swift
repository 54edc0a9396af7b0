@testable import NetworkReachabilityCore
import XCTest
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// `NeighbourFilter`: only a watched router's moves between usable, failed and unresolved pass.
final class NeighbourFilterTests: XCTestCase {
    private let router = RouterNeighbour(interfaceIndex: 2, address: Fixture.ip("fe80::a"))

    /// An RTM_NEWNEIGH payload: `struct ndmsg`, then NDA_DST.
    private func message(_ address: String, interface: Int32 = 2, state: UInt16, family: UInt8 = 10) -> [UInt8] {
        var bytes: [UInt8] = [family, 0, 0, 0]
        withUnsafeBytes(of: interface) { bytes += $0 }
        withUnsafeBytes(of: state) { bytes += $0 }
        bytes += [0x80, 1]  // ndm_flags (NTF_ROUTER), ndm_type (RTN_UNICAST)
        bytes += [20, 0, 1, 0] + Fixture.ip(address).bytes
        return bytes
    }

    private func moved(_ filter: inout NeighbourFilter, _ bytes: [UInt8], deletion: Bool = false) -> RouterNeighbour? {
        bytes.withUnsafeBytes { filter.moved(isDeletion: deletion, payload: $0) }
    }

    func testAWatchedRouter_passesOnlyWhenItsReachMoves() {
        var filter = NeighbourFilter()
        filter.watch([router])
        XCTAssertEqual(moved(&filter, message("fe80::a", state: 0x02)), router, "the first state seen")
        XCTAssertNil(moved(&filter, message("fe80::a", state: 0x04)), "REACHABLE → STALE: still usable")
        XCTAssertNil(moved(&filter, message("fe80::a", state: 0x08)), "STALE → DELAY: still usable")
        XCTAssertEqual(moved(&filter, message("fe80::a", state: 0x20)), router, "FAILED: the kernel passes it over")
        XCTAssertEqual(moved(&filter, message("fe80::a", state: 0x02)), router, "back")
        XCTAssertEqual(moved(&filter, message("fe80::a", state: 0x02), deletion: true), router, "deleted")
    }

    func testOtherNeighbours_andOtherLinks_andIPv4_areDropped() {
        var filter = NeighbourFilter()
        XCTAssertNil(moved(&filter, message("fe80::a", state: 0x20)), "nothing watched")
        filter.watch([router])
        XCTAssertNil(moved(&filter, message("fe80::b", state: 0x20)), "a host of the LAN")
        XCTAssertNil(moved(&filter, message("fe80::a", interface: 3, state: 0x20)), "the same address on another link")
        XCTAssertNil(moved(&filter, message("fe80::a", state: 0x20, family: 2)), "not IPv6")
        XCTAssertNil(moved(&filter, Array(message("fe80::a", state: 0x20).prefix(10))), "too short")
    }
}
