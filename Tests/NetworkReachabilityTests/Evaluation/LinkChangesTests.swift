@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

private typealias F = Fixture

/// Which targets a change of links or addresses can move (decision (o) and the engine's scoping).
final class LinkChangesTests: XCTestCase {
    private static let lan = F.snapshot([F.loopback, F.link(2, "eth0")], addresses: [(1, "127.0.0.1"), (2, "10.0.0.2")])

    private static func withVeth(_ flags: LinkState.Flags = F.upWithCarrier, addresses: [String] = ["fe80::8"]) -> KernelSnapshot {
        var snapshot = lan
        snapshot.links[8] = F.link(8, "veth8", flags: flags)
        snapshot.addresses += addresses.map { InterfaceAddress(interfaceIndex: 8, address: F.ip($0), prefixLength: 64, scope: F.kernelScope(of: F.ip($0))) }
        return snapshot
    }

    func testNoDifference_movesNothing() {
        let changes = LinkChanges(from: Self.lan, to: Self.lan)
        XCTAssertTrue(changes.isEmpty)
        XCTAssertFalse(changes.mayMove(.address(F.ip("192.0.2.1")), lastInterface: nil))
    }

    func testAContainerVethComingAndGoing_isConfinedToItself() {
        for (old, new) in [(Self.lan, Self.withVeth([])), (Self.withVeth([]), Self.withVeth()), (Self.withVeth(), Self.lan)] {
            let changes = LinkChanges(from: old, to: new)
            XCTAssertEqual(changes.changed, [8])
            XCTAssertFalse(changes.touchesAvailableLinks)
            XCTAssertFalse(changes.mayMove(.address(F.ip("192.0.2.1")), lastInterface: 2), "a target leaving by eth0")
            XCTAssertFalse(changes.mayMove(.general(InterfaceFilter()), lastInterface: 2), "the general path over eth0")
            XCTAssertTrue(changes.mayMove(.address(F.ip("fe80::1%veth8")), lastInterface: 8), "a target leaving by the veth")
            XCTAssertTrue(changes.mayMove(.address(F.ip("192.0.2.1")), lastInterface: nil), "a target without a route")
            XCTAssertTrue(changes.mayMove(.pair(local: F.ip("fe80::8"), remote: F.ip("fe80::1")), lastInterface: 2),
                          "a pair's local address may be the one that came or went")
            XCTAssertTrue(changes.mayMove(.general(InterfaceFilter(required: .wiredEthernet)), lastInterface: 2),
                          "a filtered general path asks per allowed link")
        }
    }

    func testALinkThatBecomesAvailable_movesEveryone() {
        let changes = LinkChanges(from: Self.withVeth(), to: Self.withVeth(addresses: ["fe80::8", "10.8.0.1"]))
        XCTAssertTrue(changes.touchesAvailableLinks)
        XCTAssertTrue(changes.mayMove(.address(F.ip("192.0.2.1")), lastInterface: 2))
    }

    func testAnAvailableLinkLosingCarrier_movesEveryone() {
        var down = Self.lan
        down.links[2] = F.link(2, "eth0", flags: [.up], operstate: .lowerLayerDown)
        let changes = LinkChanges(from: Self.lan, to: down)
        XCTAssertEqual(changes.changed, [2])
        XCTAssertTrue(changes.touchesAvailableLinks)
        XCTAssertTrue(changes.mayMove(.general(InterfaceFilter()), lastInterface: 2))
    }

    /// The engine's way (`LinkModel.apply`): the links libnl's callbacks touched, as they were
    /// before, against the snapshot updated in place, say what the whole comparison says.
    func testTouchedLinks_sayWhatTheWholeComparisonSays() {
        let cases: [(KernelSnapshot, KernelSnapshot, touched: [(Int, addresses: Bool)])] = [
            (Self.lan, Self.withVeth([]), [(8, false)]),
            (Self.withVeth([]), Self.withVeth(), [(8, true)]),
            (Self.withVeth(), Self.withVeth(addresses: ["fe80::8", "10.8.0.1"]), [(8, true)]),
            (Self.withVeth(), Self.lan, [(8, true)]),
        ]
        for (old, new, touched) in cases {
            let priors = touched.map { LinkChanges.Prior(index: $0.0, addressesMoved: $0.addresses, in: old) }
            XCTAssertEqual(LinkChanges(priors: priors, in: new), LinkChanges(from: old, to: new))
        }
        var down = Self.lan
        down.links[2] = F.link(2, "eth0", flags: [.up], operstate: .lowerLayerDown)
        let lost = LinkChanges(priors: [LinkChanges.Prior(index: 2, addressesMoved: false, in: Self.lan)], in: down)
        XCTAssertEqual(lost.changed, [2])
        XCTAssertTrue(lost.touchesAvailableLinks, "an available link that lost its carrier")
    }

    /// What lets the engine keep its last pass's links and order over a new snapshot.
    func testALinkStandsAsItWas_onlyWhenItsStateAndAvailabilityAreTheSame() {
        let secondAddress = F.snapshot([F.loopback, F.link(2, "eth0")], addresses: [(1, "127.0.0.1"), (2, "10.0.0.2"), (2, "10.9.0.2")])
        XCTAssertTrue(LinkChanges.Prior(index: 2, addressesMoved: true, in: Self.lan).standsAsItWas(in: secondAddress),
                      "an address beside another on an available link")
        XCTAssertFalse(LinkChanges.Prior(index: 8, addressesMoved: true, in: Self.withVeth())
            .standsAsItWas(in: Self.withVeth(addresses: ["fe80::8", "10.8.0.1"])), "a link that became available")
        var down = Self.lan
        down.links[2] = F.link(2, "eth0", flags: [.up], operstate: .lowerLayerDown)
        XCTAssertFalse(LinkChanges.Prior(index: 2, addressesMoved: false, in: Self.lan).standsAsItWas(in: down), "a link's state")
    }

    func testATouchedLinkWhoseValuesAreTheSame_movesNothing() {
        // libnl told of a change the snapshot does not show (a Wi-Fi link measured again, same class).
        let changes = LinkChanges(priors: [LinkChanges.Prior(index: 2, addressesMoved: false, in: Self.lan)], in: Self.lan)
        XCTAssertTrue(changes.isEmpty)
    }

    func testMerging_keepsTheWiderReach() {
        var changes = LinkChanges(from: Self.lan, to: Self.withVeth())
        changes.formUnion(LinkChanges(from: Self.withVeth(), to: Self.withVeth(addresses: ["fe80::8", "10.8.0.1"])))
        XCTAssertEqual(changes.changed, [8])
        XCTAssertTrue(changes.touchesAvailableLinks)
    }

    func testAddressesListedInAnotherOrder_areNoChange_andAMovedAddressChangesBothLinks() {
        // libnl may list an address that went and came back in another place: the same set
        let reordered = Self.withVeth(addresses: ["fe80::8", "2001:db8::8"])
        var shuffled = reordered
        shuffled.addresses.reverse()
        XCTAssertTrue(LinkChanges(from: reordered, to: shuffled).isEmpty)

        // An address that moves from one link to another changes both
        var moved = reordered
        let index = moved.addresses.firstIndex { $0.address == F.ip("2001:db8::8") }!
        moved.addresses[index].interfaceIndex = 2
        XCTAssertEqual(LinkChanges(from: reordered, to: moved).changed, [2, 8])
    }

    func testManyAddresses_areComparedAsSets_withTheSameAnswers() {
        // Above the in-place limit the comparison takes per-link sets; the answers stay the same
        let many = (0..<LinkChanges.inPlaceComparisonLimit).map { "2001:db8::\(String($0, radix: 16))" }
        let before = Self.withVeth(addresses: many)
        var shuffled = before
        shuffled.addresses.reverse()
        XCTAssertTrue(LinkChanges(from: before, to: shuffled).isEmpty)
        let after = Self.withVeth(addresses: many.dropLast() + ["2001:db8::ffff"])
        XCTAssertEqual(LinkChanges(from: before, to: after).changed, [8])
    }

    /// The changed links are a set, however many there are (two inline, the rest apart).
    func testChangedLinks_areASet_beyondTwo() {
        var changed = LinkIndexes()
        XCTAssertTrue(changed.isEmpty)
        for index in [8, 2, 8, 5, 2, 11, 5] { changed.insert(index) }
        XCTAssertEqual(changed.count, 4)
        XCTAssertEqual(changed, [11, 5, 2, 8], "equal whatever the order")
        XCTAssertNotEqual(changed, [2, 5, 8])
        XCTAssertNotEqual(changed, [2, 5, 8, 12])
        for index in [2, 5, 8, 11] { XCTAssertTrue(changed.contains(index)) }
        XCTAssertFalse(changed.contains(3))
        XCTAssertTrue(changed.contains { $0 > 10 })
        XCTAssertEqual(changed.description, "[2, 5, 8, 11]")

        var merged: LinkIndexes = [3]
        merged.formUnion(changed)
        XCTAssertEqual(merged, [2, 3, 5, 8, 11])
        merged.formUnion([])
        XCTAssertEqual(merged.count, 5)
    }
}
