@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// A pass off the engine's queue, over a table of answers: each question asked once, paths
/// shared, pending names held back, the interfaces' preference asked once.
final class EvaluationPassTests: XCTestCase {
    /// Answers from a table (no route for anything else) and counts what it was asked.
    final class TableOracle: RouteAnswering {
        var table: [RouteQuestion: RouteAnswer] = [:]
        var asked: [RouteQuestion] = []
        var batches: [[RouteRequest]] = []

        func answer(_ question: RouteQuestion) -> RouteAnswer {
            asked.append(question)
            return table[question] ?? .failure(errno: 101)  // ENETUNREACH
        }

        func answers(_ requests: [RouteRequest]) -> [RouteAnswer] {
            batches.append(requests)
            return requests.map { table[.destination($0)] ?? .failure(errno: 101) }
        }
    }

    static let eth0 = Fixture.link(2, "eth0")
    static let eth1 = Fixture.link(3, "eth1")
    static let twoLinks = Fixture.snapshot([Fixture.loopback, eth0, eth1], addresses: [(2, "10.0.0.2"), (3, "10.1.0.2")])

    private func evaluate(_ targets: [MonitorTarget], oracle: TableOracle, snapshot: KernelSnapshot = twoLinks,
                          resolution: HostResolution? = nil, includingPending: Bool = false,
                          knownPreference: [Int: UInt32]? = nil) -> (paths: [NetworkPath?], lookups: Int) {
        var pass = EvaluationPass(snapshot: snapshot, supportsDNS: true, oracle: oracle, knownPreference: knownPreference)
        var paths: [NetworkPath?] = []
        pass.evaluate(targets, includingPending: includingPending, resolution: { target in
            if case .host = target { return resolution ?? HostResolution() }
            return nil
        }, each: { _, path in paths.append(path) })
        return (paths, pass.lookups)
    }

    func testSameDestination_isAskedOnce_andItsPathShared() {
        // Given two monitors of one address and one of another, behind eth0
        let oracle = TableOracle()
        let a = Fixture.ip("192.0.2.7"), b = Fixture.ip("198.51.100.9")
        oracle.table[.destination(RouteRequest(destination: a))] = Fixture.route(dev: 2, via: ["10.0.0.1"])
        oracle.table[.destination(RouteRequest(destination: b))] = Fixture.route(dev: 2, via: ["10.0.0.1"])
        // When one pass evaluates them, with the preference already known
        let (paths, lookups) = evaluate([.address(a), .address(a), .address(b)], oracle: oracle, knownPreference: [2: 10, 3: 20])
        // Then the two distinct destinations went to the kernel together, once each
        XCTAssertEqual(oracle.batches.map(\.count), [2])
        XCTAssertEqual(oracle.asked, [])
        XCTAssertEqual(lookups, 2)
        XCTAssertEqual(paths.compactMap { $0?.flags }, [[.reachable], [.reachable], [.reachable]])
        XCTAssertEqual(paths[0], paths[1])
        XCTAssertEqual(paths[0]?.availableInterfaces.map(\.name), ["eth0", "eth1"])
    }

    func testPreference_isAskedOncePerLinkAndFamily_andOrdersTheInterfaces() {
        // Given two available links, eth1's default route preferred
        let oracle = TableOracle()
        func defaultRoute(dev: Int, via gateway: String, metric: UInt32) -> RouteAnswer {
            .route(RouteEntry(type: .unicast, table: 254, prefixLength: 0, outputInterface: dev, gateways: [Fixture.ip(gateway)],
                              preferredSource: nil, isLinkDown: false, metric: metric))
        }
        oracle.table[.defaultRoute(.ipv4, outputInterface: 2)] = defaultRoute(dev: 2, via: "10.0.0.1", metric: 100)
        oracle.table[.defaultRoute(.ipv4, outputInterface: 3)] = defaultRoute(dev: 3, via: "10.1.0.1", metric: 5)
        // When a pass evaluates with no known preference
        let (paths, lookups) = evaluate([.address(Fixture.ip("192.0.2.7"))], oracle: oracle)
        // Then each link was asked for its default route in each family, once, and eth1 comes first
        XCTAssertEqual(Set(oracle.asked.prefix(4)), [.defaultRoute(.ipv4, outputInterface: 2), .defaultRoute(.ipv6, outputInterface: 2),
                                                     .defaultRoute(.ipv4, outputInterface: 3), .defaultRoute(.ipv6, outputInterface: 3)])
        XCTAssertEqual(lookups, 5, "four preference questions and the target's one")
        XCTAssertEqual(paths.first??.availableInterfaces.map(\.name), ["eth1", "eth0"])
    }

    func testPendingName_isHeldBack_unlessAskedFor() {
        // Given a host name whose first resolution has not finished
        let oracle = TableOracle()
        // When a pass evaluates it, without and with pending names
        let held = evaluate([.host("example.test")], oracle: oracle, knownPreference: [:]).paths
        let included = evaluate([.host("example.test")], oracle: oracle, includingPending: true, knownPreference: [:]).paths
        // Then the first holds it back and the second reads it as not resolved
        XCTAssertEqual(held.count, 1)
        XCTAssertNil(held[0] as NetworkPath?)
        XCTAssertEqual(included.first??.status, .unsatisfied)
    }
}
