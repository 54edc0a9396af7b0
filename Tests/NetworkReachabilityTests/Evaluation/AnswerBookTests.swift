@testable import NetworkReachabilityCore
import ReachabilityEvaluation
import ReachabilityModel
import XCTest

private typealias F = Fixture

/// The book keeps an answer only while no message since can have moved it.
final class AnswerBookTests: XCTestCase {
    private let v4 = RouteQuestion.defaultRoute(.ipv4)
    private let v6 = RouteQuestion.defaultRoute(.ipv6)
    private let destination = RouteQuestion.destination(RouteRequest(destination: F.ip("192.0.2.7")))

    private func book() -> AnswerBook {
        var book = AnswerBook()
        book.record([v4: F.route(dev: 2, via: ["10.0.0.1"]), v6: .failure(errno: 101), destination: F.route(dev: 2)])
        return book
    }

    private func held(_ book: inout AnswerBook) -> Set<RouteQuestion> {
        Set(book.lend().keys)
    }

    func testAFamilysAddresses_takeOutThatFamilysAnswersOnly() {
        var book = book()
        book.forget(family: .ipv4)
        XCTAssertEqual(held(&book), [v6])
        var other = self.book()
        other.forget(family: .ipv6)
        XCTAssertEqual(held(&other), [v4, destination])
    }

    func testARouteMessage_takesOutWhatItsPrefixCovers_andABroadChangeAll() {
        var book = book()
        var changes = RouteChanges()
        changes.note(RoutePrefix(family: .ipv4, bytes: F.ip("192.0.2.0").bytes, length: 24))
        book.forget(movedBy: changes)
        XCTAssertEqual(held(&book), [v4, v6], "192.0.2.0/24 covers no default-route probe")
        var broad = self.book()
        broad.forget(movedBy: RouteChanges(isBroad: true))
        XCTAssertEqual(broad.count, 0)
    }
}
