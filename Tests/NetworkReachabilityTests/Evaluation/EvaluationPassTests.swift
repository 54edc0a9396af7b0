@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// A pass off the engine's queue, over a table of answers: each question asked once, paths
/// shared, pending names held back, the interfaces' preference asked once. The pass is pure: the
/// table stands where the engine would ask the kernel.
final class EvaluationPassTests: XCTestCase {
    /// Answers from a table (no route for anything else), and what the pass asked of it, round by round.
    struct Table {
        var answers: [RouteQuestion: RouteAnswer] = [:]
        var rounds: [[RouteQuestion]] = []

        mutating func answer(_ questions: [RouteQuestion]) -> [RouteAnswer] {
            rounds.append(questions)
            return questions.map { answers[$0] ?? .failure(errno: 101) }  // ENETUNREACH
        }
    }

    static let eth0 = Fixture.link(2, "eth0")
    static let eth1 = Fixture.link(3, "eth1")
    static let twoLinks = Fixture.snapshot([Fixture.loopback, eth0, eth1], addresses: [(2, "10.0.0.2"), (3, "10.1.0.2")])

    /// Runs a pass as the engine does: preference first when needed, then one round of the targets' unanswered questions.
    private func evaluate(_ targets: [MonitorTarget], table: inout Table, snapshot: KernelSnapshot = twoLinks,
                          resolution: HostResolution? = nil, includingPending: Bool = false,
                          knownPreference: [Int: UInt32]? = nil) -> [NetworkPath?] {
        var pass = EvaluationPass(snapshot: snapshot, nameServers: .global, knownPreference: knownPreference)
        if pass.needsPreference { pass.takePreference(table.answer(pass.preferenceQuestions)) }
        let resolutions = targets.map { target -> HostResolution? in
            if case .host = target { return resolution ?? HostResolution() }
            return nil
        }
        let asked = zip(targets, resolutions).map { pass.questions(for: $0, resolution: $1) }
        let missing = pass.unanswered(asked)
        if !missing.isEmpty { pass.take(table.answer(missing), for: missing) }
        XCTAssertEqual(pass.unanswered(asked), [], "every question answered after one round")
        return targets.indices.map { index in
            if resolutions[index]?.state == .pending && !includingPending { return nil }
            return pass.path(for: targets[index], questions: asked[index], resolution: resolutions[index])
        }
    }

    /// The engine's answer book, lent to a pass and taken back: the pass's own answers are added,
    /// unless the two would exceed the book's capacity (then the book starts again empty, and
    /// nothing is copied into it only to be dropped).
    func testTheLentBook_comesBackWithThePassAnswers_unlessOverTheLimit() {
        let lent = RouteQuestion.destination(RouteRequest(destination: Fixture.ip("192.0.2.7")))
        let asked = RouteQuestion.destination(RouteRequest(destination: Fixture.ip("198.51.100.9")))
        func pass() -> EvaluationPass {
            var pass = EvaluationPass(snapshot: Self.twoLinks, nameServers: .global, knownPreference: [2: 10, 3: 20])
            pass.consult([lent: Fixture.route(dev: 2, via: ["10.0.0.1"])])
            pass.take([Fixture.route(dev: 3, via: ["10.1.0.1"])], for: [asked])
            return pass
        }
        var within = pass()
        XCTAssertEqual(Set(within.returnKnown(upTo: 2).keys), [lent, asked])
        var over = pass()
        XCTAssertTrue(over.returnKnown(upTo: 1).isEmpty)
    }

    func testSameDestination_isAskedOnce_andItsPathShared() {
        // Given two monitors of one address and one of another, behind eth0
        var table = Table()
        let a = Fixture.ip("192.0.2.7"), b = Fixture.ip("198.51.100.9")
        table.answers[.destination(RouteRequest(destination: a))] = Fixture.route(dev: 2, via: ["10.0.0.1"])
        table.answers[.destination(RouteRequest(destination: b))] = Fixture.route(dev: 2, via: ["10.0.0.1"])
        // When one pass evaluates them, with the preference already known
        let paths = evaluate([.address(a), .address(a), .address(b)], table: &table, knownPreference: [2: 10, 3: 20])
        // Then the two distinct destinations were asked in one round, once each
        XCTAssertEqual(table.rounds, [[.destination(RouteRequest(destination: a)), .destination(RouteRequest(destination: b))]])
        XCTAssertEqual(paths.compactMap { $0?.flags }, [[.reachable], [.reachable], [.reachable]])
        XCTAssertEqual(paths[0], paths[1])
        XCTAssertEqual(paths[0]?.availableInterfaces.map(\.name), ["eth0", "eth1"])
    }

    func testPreference_isAskedOncePerLinkAndFamily_andOrdersTheInterfaces() {
        // Given two available links, eth1's default route preferred
        var table = Table()
        func defaultRoute(dev: Int, via gateway: String, metric: UInt32) -> RouteAnswer {
            .route(RouteEntry(type: .unicast, table: 254, prefixLength: 0, outputInterface: dev, gateways: [Fixture.ip(gateway)],
                              preferredSource: nil, isLinkDown: false, metric: metric))
        }
        table.answers[.defaultRoute(.ipv4, outputInterface: 2)] = defaultRoute(dev: 2, via: "10.0.0.1", metric: 100)
        table.answers[.defaultRoute(.ipv4, outputInterface: 3)] = defaultRoute(dev: 3, via: "10.1.0.1", metric: 5)
        // When a pass evaluates with no known preference
        let paths = evaluate([.address(Fixture.ip("192.0.2.7"))], table: &table)
        // Then each link was asked for its default route in each family, once, and eth1 comes first
        XCTAssertEqual(table.rounds.count, 2)
        XCTAssertEqual(Set(table.rounds[0]), [.defaultRoute(.ipv4, outputInterface: 2), .defaultRoute(.ipv6, outputInterface: 2),
                                              .defaultRoute(.ipv4, outputInterface: 3), .defaultRoute(.ipv6, outputInterface: 3)])
        XCTAssertEqual(table.rounds.joined().count, 5, "four preference questions and the target's one")
        XCTAssertEqual(paths.first??.availableInterfaces.map(\.name), ["eth1", "eth0"])
    }

    func testPreferenceAnswers_areReusedByAFilteredGeneralPath() {
        // Given two available links and a general path restricted to wired interfaces
        var table = Table()
        // When a pass asks the preference, then evaluates the filtered general path
        _ = evaluate([.general(InterfaceFilter(required: .wiredEthernet))], table: &table)
        // Then its per-interface default-route questions were the preference's: nothing asked twice
        XCTAssertEqual(table.rounds.count, 1, "\(table.rounds)")
    }

    func testPendingName_isHeldBack_unlessAskedFor() {
        // Given a host name whose first resolution has not finished
        var table = Table()
        // When a pass evaluates it, without and with pending names
        let held = evaluate([.host("example.test")], table: &table, knownPreference: [:])
        let included = evaluate([.host("example.test")], table: &table, includingPending: true, knownPreference: [:])
        // Then the first holds it back and the second reads it as not resolved
        XCTAssertEqual(held.count, 1)
        XCTAssertNil(held[0] as NetworkPath?)
        XCTAssertEqual(included.first??.status, .unsatisfied)
    }
}
