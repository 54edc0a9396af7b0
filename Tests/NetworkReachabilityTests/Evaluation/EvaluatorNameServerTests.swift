import XCTest
import ReachabilityEvaluation
import ReachabilityModel

/// `supportsDNS`: a name server serves the path (semantics.md, "The general path").
final class EvaluatorNameServerTests: XCTestCase {
    private typealias F = Fixture

    private func path(_ answer: RouteAnswer, _ nameServers: NameServerScope) -> NetworkPath {
        let snapshot = EvaluatorTests.snapshotWithEth0
        let target = MonitorTarget.address(F.ip("192.0.2.1"))
        return Evaluator.evaluate(target, questions: Evaluator.questions(for: target, in: snapshot),
                                  answers: [answer], in: snapshot, nameServers: nameServers)
    }

    func testSupportsDNS_followsTheServersOfThePathsInterface() {
        let overEth0 = F.route(dev: 2, via: ["10.0.0.1"])
        XCTAssertTrue(path(overEth0, .global).supportsDNS, "a global server")
        XCTAssertTrue(path(overEth0, .links([2])).supportsDNS, "eth0's own server")
        XCTAssertFalse(path(overEth0, .links([3])).supportsDNS, "another link's server")
        XCTAssertFalse(path(overEth0, .none).supportsDNS, "no server")
    }

    func testSupportsDNS_isFalse_onAPathWithNoUsableInterface() {
        let noRoute = path(.failure(errno: 101), .global)  // ENETUNREACH
        XCTAssertEqual(noRoute.status, .unsatisfied)
        XCTAssertFalse(noRoute.supportsDNS, "no route: \(noRoute)")
        let unreachable = path(F.route(.unreachable, dev: nil), .global)
        XCTAssertFalse(unreachable.supportsDNS, "an unreachable route: \(unreachable)")
    }
}
