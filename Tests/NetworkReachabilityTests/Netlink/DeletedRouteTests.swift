@testable import NetworkReachabilityCore
import ReachabilityModel
import ReachabilityNetlink
import XCTest
#if canImport(Glibc)
import Glibc
#endif

private typealias F = Fixture

/// A deleted route the engine did not wait for: which answers may still be it (and are asked
/// again after a wait), read from the RTM_DELROUTE message without allocating.
final class DeletedRouteTests: XCTestCase {
    typealias Kind = RouteMessageBuilder.Kind

    /// `default via 10.0.0.1 dev 2` in the main table, as an RTM_DELROUTE announces it.
    private let defaultRoute = DeletedRoute(family: .ipv4, type: .unicast, table: 254, prefixLength: 0,
                                            outputInterface: 2, gateway: F.ip("10.0.0.1"))

    func testTheSameRoute_mayBeIt_asFIBEntryAndAsResolvedRoute() {
        XCTAssertTrue(defaultRoute.mayBe(F.route(dev: 2, via: ["10.0.0.1"], prefixLength: 0), family: .ipv4, fibMatch: true))
        XCTAssertTrue(defaultRoute.mayBe(F.route(dev: 2, via: ["10.0.0.1"], prefixLength: 32), family: .ipv4, fibMatch: false))
    }

    func testAnotherRoute_isNotIt() {
        XCTAssertFalse(defaultRoute.mayBe(F.route(dev: 2, via: ["10.0.0.1"], prefixLength: 0), family: .ipv6, fibMatch: true))
        XCTAssertFalse(defaultRoute.mayBe(F.route(dev: 2, via: ["10.0.0.1"], prefixLength: 8), family: .ipv4, fibMatch: true),
                       "a more specific FIB entry")
        XCTAssertFalse(defaultRoute.mayBe(F.route(dev: 2, via: ["10.0.0.9"], prefixLength: 0), family: .ipv4, fibMatch: true))
        XCTAssertFalse(defaultRoute.mayBe(F.route(dev: 3, via: ["10.0.0.1"], prefixLength: 0), family: .ipv4, fibMatch: true))
        XCTAssertFalse(defaultRoute.mayBe(F.route(dev: 2, via: ["10.0.0.1"], prefixLength: 0, table: 100), family: .ipv4, fibMatch: true))
        XCTAssertFalse(defaultRoute.mayBe(F.route(dev: 2, prefixLength: 0), family: .ipv4, fibMatch: true), "an on-link route")
        XCTAssertFalse(defaultRoute.mayBe(.failure(errno: ENETUNREACH), family: .ipv4, fibMatch: true), "no route: it is gone")
        var withMetric = defaultRoute
        withMetric.metric = 100
        guard case .route(var entry) = F.route(dev: 2, via: ["10.0.0.1"], prefixLength: 0) else { return XCTFail() }
        entry.metric = 200
        XCTAssertFalse(withMetric.mayBe(.route(entry), family: .ipv4, fibMatch: true), "the same route of another metric")
    }

    func testARefusingRoute_mayBeAnyRefusal_andAMultipathRouteAnyRouteOfItsTable() {
        let unreachable = DeletedRoute(family: .ipv4, type: .unreachable, table: 254, prefixLength: 0)
        XCTAssertTrue(unreachable.mayBe(.failure(errno: EHOSTUNREACH), family: .ipv4, fibMatch: true))
        XCTAssertFalse(unreachable.mayBe(F.route(dev: 2, via: ["10.0.0.1"], prefixLength: 0), family: .ipv4, fibMatch: true))
        let multipath = DeletedRoute(family: .ipv4, type: .unicast, table: 254, prefixLength: 0, isMultipath: true)
        XCTAssertTrue(multipath.mayBe(F.route(dev: 3, via: ["10.0.1.1"], prefixLength: 0), family: .ipv4, fibMatch: true))
    }

    func testTheMessage_isReadAsTheRouteItDeletes() {
        var message = RouteMessageBuilder()
        message.destinationLength = 0
        message.add(Kind.table, u32: 254)
        message.add(Kind.priority, u32: 100)
        message.add(Kind.gateway, address: "10.0.0.1")
        message.add(Kind.outputInterface, u32: 2)
        var expected = defaultRoute
        expected.metric = 100
        XCTAssertEqual(message.payload.withUnsafeBytes { RouteMessageParser.deletedRoute(fromPayload: $0) }, expected)

        var multipath = RouteMessageBuilder()
        multipath.destinationLength = 0
        multipath.add(Kind.multipath, RouteMessageBuilder.nexthop(interface: 2) + RouteMessageBuilder.nexthop(interface: 3))
        XCTAssertEqual(multipath.payload.withUnsafeBytes { RouteMessageParser.deletedRoute(fromPayload: $0) }?.isMultipath, true)
        XCTAssertNil([UInt8](repeating: 0, count: 4).withUnsafeBytes { RouteMessageParser.deletedRoute(fromPayload: $0) })
    }

    func testADrain_saysWhenItHoldsAMessageOfALaterRequest() {
        let deletion = NetlinkRequest(port: 4242, sequence: 7)
        var drain = DrainResult()
        drain.noteRequest(port: 0, sequence: 0)
        XCTAssertFalse(drain.holdsRequest(laterThan: deletion), "the kernel's own messages tell nothing")
        drain.noteRequest(port: 4242, sequence: 7)
        XCTAssertFalse(drain.holdsRequest(laterThan: deletion), "the deletion's own request")
        var later = DrainResult()
        later.noteRequest(port: 4243, sequence: 1)
        XCTAssertTrue(later.holdsRequest(laterThan: deletion))
        drain.formUnion(later)
        XCTAssertTrue(drain.holdsRequest(laterThan: deletion), "merged drains keep both requests")
    }
}
