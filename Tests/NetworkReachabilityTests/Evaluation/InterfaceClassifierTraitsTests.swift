import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// Interface types and costs from the device evidence `LinkInspector` gathers (`LinkTraits`):
/// semantics.md "Interface types", issue 4 ("isExpensive", NetworkManager's order of evidence).
final class InterfaceClassifierTraitsTests: XCTestCase {
    private typealias F = Fixture

    /// A link with `traits`; by default a veth (Ethernet, kind veth), up with carrier.
    private func link(_ name: String = "dev0", index: Int = 3, hardwareType: UInt32 = 1, kind: String? = "veth",
                      flags: LinkState.Flags = F.upWithCarrier, _ traits: LinkTraits = LinkTraits()) -> LinkState {
        var link = F.link(index, name, flags: flags, hardwareType: hardwareType, kind: kind)
        link.traits = traits
        return link
    }

    private func traits(devtype: String? = nil, wireless: Bool = false, driver: String? = nil, product: String? = nil,
                        expensive: Bool = false, constrained: Bool = false) -> LinkTraits {
        var traits = LinkTraits()
        traits.deviceType = devtype
        traits.isWireless = wireless
        traits.driver = driver
        traits.usbProduct = product
        traits.isConfiguredExpensive = expensive
        traits.isConfiguredConstrained = constrained
        return traits
    }

    private struct Row {
        var name: String
        var link: LinkState
        var type: NetworkInterface.InterfaceType
        var expensive: Bool
    }

    private var table: [Row] {
        [
            // Wi-Fi
            Row(name: "DEVTYPE=wlan", link: link("wlan0", traits(devtype: "wlan")), type: .wifi, expensive: false),
            Row(name: "phy80211 or wireless/", link: link("wlp2s0", traits(wireless: true)), type: .wifi, expensive: false),
            Row(name: "physical NIC with DEVTYPE=wlan", link: link("wlan0", kind: nil, traits(devtype: "wlan", driver: "iwlwifi")),
                type: .wifi, expensive: false),
            // cellular
            Row(name: "DEVTYPE=wwan", link: link("wwp0s20u4", traits(devtype: "wwan")), type: .cellular, expensive: true),
            Row(name: "driver qmi_wwan", link: link("wwp0s20u4i4", kind: nil, traits(driver: "qmi_wwan")), type: .cellular, expensive: true),
            Row(name: "driver cdc_mbim", link: link("mbim0", kind: nil, traits(driver: "cdc_mbim")), type: .cellular, expensive: true),
            Row(name: "driver mhi_net", link: link("mhi0", kind: nil, traits(driver: "mhi_net")), type: .cellular, expensive: true),
            Row(name: "driver huawei_cdc_ncm", link: link("hw0", kind: nil, traits(driver: "huawei_cdc_ncm")), type: .cellular, expensive: true),
            Row(name: "name rmnet*", link: link("rmnet_data0"), type: .cellular, expensive: true),
            Row(name: "name ccmni*", link: link("ccmni0"), type: .cellular, expensive: true),
            Row(name: "name wwan*", link: link("wwan0"), type: .cellular, expensive: true),
            Row(name: "kind rmnet", link: link("r0", hardwareType: 519, kind: "rmnet"), type: .cellular, expensive: true),
            Row(name: "ARPHRD_RAWIP", link: link("x0", hardwareType: 519, kind: nil), type: .cellular, expensive: true),
            // expensive, not cellular
            Row(name: "DEVTYPE=bluetooth (BNEP)", link: link("bnep0", traits(devtype: "bluetooth")), type: .wiredEthernet, expensive: true),
            Row(name: "driver bnep", link: link("bnep1", kind: nil, traits(driver: "bnep")), type: .wiredEthernet, expensive: true),
            Row(name: "rndis_host", link: link("usb0", kind: nil, traits(driver: "rndis_host")), type: .wiredEthernet, expensive: true),
            Row(name: "ipheth", link: link("eth1", kind: nil, traits(driver: "ipheth")), type: .wiredEthernet, expensive: true),
            Row(name: "cdc_ether behind a Pixel", link: link("usb1", kind: nil, traits(driver: "cdc_ether", product: "Pixel 7")),
                type: .wiredEthernet, expensive: true),
            Row(name: "cdc_ncm behind an Android phone", link: link("usb2", kind: nil, traits(driver: "cdc_ncm", product: "SAMSUNG_Android")),
                type: .wiredEthernet, expensive: true),
            Row(name: "configured expensive", link: link("eth9", traits(expensive: true)), type: .wiredEthernet, expensive: true),
            // not expensive
            Row(name: "cdc_ether behind a dock", link: link("usb3", kind: nil, traits(driver: "cdc_ether", product: "USB 10/100/1000 LAN")),
                type: .wiredEthernet, expensive: false),
            Row(name: "cdc_ncm without a product", link: link("usb4", kind: nil, traits(driver: "cdc_ncm")), type: .wiredEthernet, expensive: false),
            Row(name: "r8169 NIC", link: link("enp3s0", kind: nil, traits(driver: "r8169")), type: .wiredEthernet, expensive: false),
            Row(name: "veth, no traits", link: link("v0"), type: .wiredEthernet, expensive: false),
            Row(name: "configured constrained only", link: link("v1", traits(constrained: true)), type: .wiredEthernet, expensive: false),
            // order of evidence: loopback and tunnel kinds before the device's word
            Row(name: "tun with DEVTYPE=wlan", link: link("tun0", hardwareType: 65534, kind: "tun", traits(devtype: "wlan")),
                type: .other, expensive: false),
            Row(name: "wireguard named wwan0", link: link("wwan0", hardwareType: 65534, kind: "wireguard"), type: .other, expensive: false),
            Row(name: "loopback with DEVTYPE=wwan", link: link("lo", index: 1, hardwareType: 772, kind: nil,
                                                               flags: [.up, .loopback, .lowerUp], traits(devtype: "wwan")),
                type: .loopback, expensive: false),
            // device evidence beats the veth/bridge kinds (so fixtures can stand in for devices)
            Row(name: "bridge with DEVTYPE=wlan", link: link("br0", kind: "bridge", traits(devtype: "wlan")), type: .wifi, expensive: false),
            // Wi-Fi evidence before cellular evidence
            Row(name: "wlan DEVTYPE on a wwan-named link", link: link("wwan1", traits(devtype: "wlan")), type: .wifi, expensive: false),
            // nothing of the above, not Ethernet
            Row(name: "PPP", link: link("ppp0", hardwareType: 512, kind: nil, flags: [.up, .pointToPoint, .lowerUp]), type: .other, expensive: false),
            Row(name: "ARPHRD_NONE without kind", link: link("none0", hardwareType: 65534, kind: nil), type: .other, expensive: false),
        ]
    }

    func testType_fromDeviceEvidence() {
        for row in table {
            XCTAssertEqual(InterfaceClassifier.type(of: row.link), row.type, row.name)
        }
    }

    func testIsExpensive_cellularBluetoothTetheringAndConfigured() {
        for row in table {
            XCTAssertEqual(InterfaceClassifier.isExpensive(row.link), row.expensive, row.name)
        }
    }

    func testInterface_carriesTypeCostAndConstraint() {
        for row in table {
            let interface = InterfaceClassifier.interface(for: row.link)
            XCTAssertEqual(interface.name, row.link.name, row.name)
            XCTAssertEqual(interface.index, row.link.index, row.name)
            XCTAssertEqual(interface.type, row.type, row.name)
            XCTAssertEqual(interface.isExpensive, row.expensive, row.name)
            XCTAssertEqual(interface.isConstrained, row.link.traits.isConfiguredConstrained, row.name)
        }
    }

    func testIsConstrained_onlyWhereConfigured() {
        XCTAssertTrue(InterfaceClassifier.interface(for: link("v1", traits(constrained: true))).isConstrained)
        for row in table where !row.link.traits.isConfiguredConstrained {
            XCTAssertFalse(InterfaceClassifier.interface(for: row.link).isConstrained, "\(row.name): cellular or tethering is not constrained")
        }
    }

    func testPhoneProduct_isMatchedCaseInsensitively() {
        for product in ["PIXEL 8 PRO", "Android", "Galaxy S23", "Xiaomi 13", "OnePlus 11", "USB Tethering"] {
            XCTAssertTrue(InterfaceClassifier.isExpensive(link("usb0", kind: nil, traits(driver: "cdc_ether", product: product))), product)
        }
    }

    // MARK: - The flags of a cellular route (Evaluator)

    func testVerdict_overACellularLink_addsIsWWANAndTransientConnection() {
        for (name, cellular) in [("DEVTYPE=wwan", link("wwp0", traits(devtype: "wwan"))),
                                 ("qmi_wwan", link("wwp1", kind: nil, traits(driver: "qmi_wwan"))),
                                 ("rmnet name", link("rmnet0"))] {
            let snapshot = F.snapshot([F.loopback, cellular], addresses: [(cellular.index, "100.64.0.2")])
            let verdict = Evaluator.verdict(for: F.route(dev: cellular.index, via: ["100.64.0.1"]), in: snapshot)
            XCTAssertEqual(verdict.flags, [.reachable, .isWWAN, .transientConnection], name)
            XCTAssertEqual(ReachabilityStatus(flags: verdict.flags), .reachableViaWWAN, name)
        }
    }

    func testVerdict_overBluetoothOrTethering_isNotWWAN() {
        for (name, link) in [("bluetooth", link("bnep0", traits(devtype: "bluetooth"))),
                             ("rndis", link("usb0", kind: nil, traits(driver: "rndis_host")))] {
            let snapshot = F.snapshot([F.loopback, link], addresses: [(link.index, "192.168.42.2")])
            let verdict = Evaluator.verdict(for: F.route(dev: link.index, via: ["192.168.42.1"]), in: snapshot)
            XCTAssertEqual(verdict.flags, [.reachable], name)
        }
    }

    func testPath_isExpensiveAndConstrained_followTheRoutesInterface() {
        let expensive = link("usb0", index: 2, kind: nil, traits(driver: "rndis_host"))
        let constrained = link("v1", index: 3, traits(constrained: true))
        let snapshot = F.snapshot([F.loopback, expensive, constrained], addresses: [(2, "192.168.42.2"), (3, "10.1.0.2")])
        let question = RouteQuestion.defaultRoute(.ipv4)
        func path(_ index: Int) -> NetworkPath {
            Evaluator.evaluate(.address(F.ip("0.0.0.0")), questions: [question], answers: [F.route(dev: index, via: ["10.0.0.1"])],
                               in: snapshot, nameServers: .global)
        }
        XCTAssertTrue(path(2).isExpensive)
        XCTAssertFalse(path(2).isConstrained)
        XCTAssertFalse(path(3).isExpensive)
        XCTAssertTrue(path(3).isConstrained)
        XCTAssertEqual(path(2).availableInterfaces.map(\.isExpensive), [true, false])
        XCTAssertEqual(path(3).availableInterfaces.map(\.isConstrained), [true, false])
    }
}
