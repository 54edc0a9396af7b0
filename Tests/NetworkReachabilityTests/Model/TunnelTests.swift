import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// `NetworkInterface.kind`, `isTunnel` and `NetworkPath.isTunneled` (semantics.md, "Tunnels").
final class TunnelTests: XCTestCase {
    private typealias F = Fixture

    func testInterface_carriesTheLinksKind() {
        let interface = InterfaceClassifier.interface(
            for: F.link(9, "wg0", flags: [.up, .pointToPoint], hardwareType: 65534, kind: "wireguard"))
        XCTAssertEqual(interface.kind, "wireguard")
        XCTAssertNil(InterfaceClassifier.interface(for: F.link()).kind, "a physical device has no kind")
    }

    func testIsTunnel_table() {
        let table: [(String?, Bool)] = [
            ("tun", true), ("wireguard", true), ("vxlan", true), ("xfrm", true), ("gre", true), ("ipip", true),
            ("geneve", true), ("ppp", false), ("veth", false), ("bridge", false), ("vlan", false), (nil, false),
        ]
        for (kind, expected) in table {
            XCTAssertEqual(NetworkInterface(name: "x", index: 2, type: .other, kind: kind).isTunnel, expected, kind ?? "nil")
        }
    }

    func testIsTunneled_followsTheRoutesInterface() throws {
        let snapshot = F.snapshot([F.loopback, F.link(2, "eth0", kind: "veth"),
                                   F.link(3, "wg0", flags: [.up, .running, .lowerUp, .pointToPoint], hardwareType: 65534, kind: "wireguard")],
                                  addresses: [(2, "10.0.0.2"), (3, "10.8.0.2")])
        let target = MonitorTarget.address(F.ip("192.0.2.1"))
        let questions = Evaluator.questions(for: target, in: snapshot)
        let viaTunnel = Evaluator.evaluate(target, questions: questions, answers: [F.route(dev: 3, prefixLength: 1)],
                                           in: snapshot, nameServers: .global)
        XCTAssertTrue(viaTunnel.isTunneled, "\(viaTunnel)")
        XCTAssertEqual(viaTunnel.interface?.kind, "wireguard")
        let viaVeth = Evaluator.evaluate(target, questions: questions, answers: [F.route(dev: 2, via: ["10.0.0.1"])],
                                         in: snapshot, nameServers: .global)
        XCTAssertFalse(viaVeth.isTunneled)
        XCTAssertEqual(viaVeth.interface?.kind, "veth")
        XCTAssertFalse(NetworkPath.unsatisfied(.noRoute).isTunneled)
    }
}
