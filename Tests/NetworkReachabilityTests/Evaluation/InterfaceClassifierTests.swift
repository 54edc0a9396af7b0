import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// Interface types from link flags, kind and ARPHRD type (semantics.md, "Interface types").
final class InterfaceClassifierTests: XCTestCase {
    private typealias F = Fixture

    func testType_table() {
        let table: [(String, LinkState, NetworkInterface.InterfaceType)] = [
            ("lo: IFF_LOOPBACK", F.loopback, .loopback),
            ("ARPHRD_LOOPBACK without the flag", F.link(1, "lo", flags: [.up], hardwareType: 772), .loopback),
            ("IFF_LOOPBACK on any type", F.link(9, "odd", flags: [.up, .loopback], hardwareType: 1), .loopback),
            ("physical NIC", F.link(2, "eth0", hardwareType: 1), .wiredEthernet),
            ("veth", F.link(3, "veth0", hardwareType: 1, kind: "veth"), .wiredEthernet),
            ("bridge", F.link(4, "br0", hardwareType: 1, kind: "bridge"), .wiredEthernet),
            ("vlan", F.link(5, "eth0.100", hardwareType: 1, kind: "vlan"), .wiredEthernet),
            ("ARPHRD_RAWIP (qmi_wwan, rmnet)", F.link(6, "wwan0", hardwareType: 519), .cellular),
            ("tun", F.link(7, "tun0", flags: [.up, .pointToPoint], hardwareType: 65534, kind: "tun"), .other),
            ("tap (tun kind, Ethernet type)", F.link(8, "tap0", hardwareType: 1, kind: "tun"), .other),
            ("wireguard", F.link(9, "wg0", flags: [.up, .pointToPoint], hardwareType: 65534, kind: "wireguard"), .other),
            ("gretap (Ethernet type)", F.link(10, "gretap1", hardwareType: 1, kind: "gretap"), .other),
            ("ipip", F.link(11, "tunl1", hardwareType: 768, kind: "ipip"), .other),
            ("sit", F.link(12, "sit1", hardwareType: 776, kind: "sit"), .other),
            ("PPP", F.link(13, "ppp0", flags: [.up, .pointToPoint], hardwareType: 512), .other),
            ("ARPHRD_NONE", F.link(14, "none0", hardwareType: 65534), .other),
            ("InfiniBand", F.link(15, "ib0", hardwareType: 32, kind: "ipoib"), .other),
        ]
        for (name, link, expected) in table {
            XCTAssertEqual(InterfaceClassifier.type(of: link), expected, name)
        }
    }

    func testInterface_copiesNameIndexAndType() {
        XCTAssertEqual(InterfaceClassifier.interface(for: F.link(4, "wwan0", hardwareType: 519)),
                       NetworkInterface(name: "wwan0", index: 4, type: .cellular, isExpensive: true))
        XCTAssertEqual(InterfaceClassifier.interface(for: F.loopback), NetworkInterface(name: "lo", index: 1, type: .loopback))
    }
}
