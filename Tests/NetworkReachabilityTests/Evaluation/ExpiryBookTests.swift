@testable import NetworkReachabilityCore
import XCTest
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// `ExpiryBook`: deadlines from answers, refresh watches after an expiry, the routers of IPv6 answers.
final class ExpiryBookTests: XCTestCase {
    private let second: UInt64 = 1_000_000_000
    private let question = RouteQuestion.defaultRoute(.ipv6)

    func route(via gateway: String? = "fe80::1", interface: Int = 2, expiresIn: Duration? = nil) -> RouteAnswer {
        .route(RouteEntry(type: .unicast, table: 254, prefixLength: 0, outputInterface: interface,
                          gateways: gateway.map { [Fixture.ip($0)] } ?? [], preferredSource: nil, isLinkDown: false,
                          expiresIn: expiresIn))
    }

    func testAnExpiry_isDueJustAfterIt_andARefreshMovesIt() {
        var book = ExpiryBook()
        book.note(question, route(expiresIn: .seconds(4)), now: 0)
        XCTAssertEqual(book.nextDue, 4 * second + ExpiryBook.margin)
        book.note(question, route(expiresIn: .seconds(4)), now: 2 * second)
        XCTAssertEqual(book.nextDue, 6 * second + ExpiryBook.margin, "every answer brings its own expiry")
        XCTAssertEqual(book.takeDue(now: 5 * second).expired, [], "not due before the refreshed expiry")
        XCTAssertEqual(book.takeDue(now: 7 * second).expired, [question])
        book.note(question, .failure(errno: ENETUNREACH), now: 7 * second)
        XCTAssertEqual(book.nextDue, 8 * second, "the route expired: asked again a second later for a refresh")
        XCTAssertEqual(book.refreshes.count, 1)
    }

    func testARouteDeletedBeforeItsExpiry_isNotWatched() {
        var book = ExpiryBook()
        book.note(question, route(expiresIn: .seconds(30)), now: 0)
        book.note(question, .failure(errno: ENETUNREACH), now: 2 * second)
        XCTAssertTrue(book.isEmpty == false && book.refreshes.isEmpty && book.nextDue == nil,
                      "deleted with a message (lifetime 0): nothing to watch")
    }

    func testAQuestionNoMonitorAsksAnyMore_doesNotWakeTheTimerAgain() {
        var book = ExpiryBook()
        book.note(question, route(expiresIn: .seconds(1)), now: 0)
        let expired = book.takeDue(now: 2 * second).expired
        book.keepOnly([])
        book.settle(expired, now: 2 * second)
        XCTAssertNil(book.nextDue)
    }

    func testAnAnswerThatLostItsRoute_isWatchedOnABoundedSchedule_untilItsRouteIsBack() {
        var book = ExpiryBook()
        book.note(question, .failure(errno: ENETUNREACH), now: 0)
        book.startRefreshWatch(question, now: 0)
        var asked: [UInt64] = []
        var now: UInt64 = 0
        while let due = book.nextDue, due <= 120 * second {
            now = due
            if !book.takeDue(now: now).refreshing.isEmpty { asked.append(now / second) }
        }
        XCTAssertEqual(asked.first, 1, "asked again a second after the expiry")
        XCTAssertEqual(Array(asked.prefix(10)), Array(1...10), "every second at first")
        XCTAssertLessThanOrEqual(asked.last ?? 0, 65, "then no more once the route is surely collected")
        XCTAssertLessThan(asked.count, 30)

        book.startRefreshWatch(question, now: 0)
        book.note(question, route(expiresIn: .seconds(30)), now: 2 * second)
        XCTAssertTrue(book.refreshes.isEmpty, "a route with an expiry again ends the watch")
    }

    func testRouters_areTheGatewaysOfIPv6Answers_andThoseTheyHadBefore() {
        var book = ExpiryBook()
        book.note(question, route(via: "fe80::a", interface: 2), now: 0)
        book.note(question, route(via: "fe80::b", interface: 3), now: 0)
        book.note(question, .failure(errno: ENETUNREACH), now: 0)
        XCTAssertEqual(book.routerNeighbours, [RouterNeighbour(interfaceIndex: 2, address: Fixture.ip("fe80::a")),
                                               RouterNeighbour(interfaceIndex: 3, address: Fixture.ip("fe80::b"))])
        book.note(question, route(via: nil), now: 0)
        XCTAssertEqual(book.routerNeighbours, [], "an on-link answer depends on no router")
        book.note(.defaultRoute(.ipv4), route(via: "192.0.2.1"), now: 0)
        XCTAssertEqual(book.routerNeighbours, [], "IPv4 has no router selection by neighbour state")
        book.note(question, route(via: "fe80::a"), now: 0)
        book.keepOnly([])
        XCTAssertTrue(book.isEmpty, "nothing kept for questions no monitor asks")
    }
}

extension ExpiryBookTests {
    func testTheSameExpiryReadAgain_keepsItsDeadline() {
        var book = ExpiryBook()
        let question = RouteQuestion.defaultRoute(.ipv6)
        book.note(question, route(expiresIn: .seconds(4)), now: 0)
        let first = book.nextDue
        // 1 s later the kernel says 2.99 s left: its ticks truncate, the deadline is the same.
        book.note(question, route(expiresIn: .milliseconds(2990)), now: 1_000_000_000)
        XCTAssertEqual(book.nextDue, first, "a tick's truncation does not move the timer")
    }
}
