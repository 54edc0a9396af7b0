@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

private typealias F = Fixture

/// The engine evaluates address targets with equal keys once: that is only right if their paths
/// are equal for every kind of answer.
final class PathSharingKeyTests: XCTestCase {
    private static let snapshot = F.snapshot([F.loopback, F.link(2, "eth0"), F.link(3, "wwan0", hardwareType: 519)],
                                             addresses: [(1, "127.0.0.1"), (2, "10.0.0.2"), (3, "100.64.0.2")])

    private func path(_ address: String, _ answer: RouteAnswer) -> (PathSharingKey?, NetworkPath) {
        let target = MonitorTarget.address(F.ip(address))
        let questions = Evaluator.questions(for: target, in: Self.snapshot)
        let verdict = Evaluator.verdict(for: target, questions: questions, answers: [answer], in: Self.snapshot)
        let path = Evaluator.path(for: target, verdict: verdict, in: Self.snapshot, nameServers: .global)
        return (PathSharingKey(target: target, stamp: PathVerdict(verdict, epoch: 1)), path)
    }

    func testAddressTargetsWithTheSameAnswer_haveTheSameKeyAndPath() {
        let answers: [RouteAnswer] = [
            F.route(dev: 2, via: ["10.0.0.1"]), F.route(dev: 3), F.route(.local, dev: 1), F.route(.unreachable),
            .failure(errno: ENETUNREACH), .failure(errno: EACCES), F.route(dev: 2, linkDown: true),
        ]
        for answer in answers {
            let (keyA, pathA) = path("192.0.2.1", answer)
            let (keyB, pathB) = path("198.51.100.77", answer)
            XCTAssertNotNil(keyA)
            XCTAssertEqual(keyA, keyB, "\(answer)")
            XCTAssertEqual(pathA, pathB, "\(answer)")
        }
    }

    func testOtherFamiliesAnswersAndKinds_doNotShare() {
        XCTAssertNotEqual(path("192.0.2.1", F.route(dev: 2)).0, path("2001:db8::1", F.route(dev: 2)).0)
        XCTAssertNotEqual(path("192.0.2.1", F.route(dev: 2)).0, path("192.0.2.1", F.route(dev: 3)).0)
        let pair = MonitorTarget.pair(local: F.ip("10.0.0.2"), remote: F.ip("192.0.2.1"))
        let stamp = PathVerdict(TargetVerdict(best: .noRoute), epoch: 1)
        XCTAssertNil(PathSharingKey(target: pair, stamp: stamp))
        XCTAssertNil(PathSharingKey(target: .general(.none), stamp: stamp))
        XCTAssertNil(PathSharingKey(target: .host("example.test"), stamp: stamp))
        XCTAssertNil(PathSharingKey(target: .address(F.ip("192.0.2.1")), stamp: nil))
    }
}
