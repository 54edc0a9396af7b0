import XCTest
@testable import NetworkReachabilityCore
import ReachabilityEvaluation
import ReachabilityModel
@testable import ReachabilityNetlink

/// docs/semantics.md "Link quality": the classes of a link's figures, the hysteresis of a Wi-Fi
/// signal, and which interface types carry a quality at all.
final class LinkMeasurementTests: XCTestCase {
    func testWired_bySpeedAndDuplex() {
        let rows: [(Int?, Bool?, LinkQuality)] = [
            (10_000, true, .good), (1000, true, .good), (100, true, .good), (100, false, .moderate),
            (1000, false, .moderate), (99, true, .moderate), (10, true, .moderate), (10, false, .minimal),
            (9, true, .minimal), (1, nil, .minimal), (100, nil, .good), (nil, true, .unknown), (0, true, .unknown),
        ]
        for (speed, fullDuplex, expected) in rows {
            let figures = LinkMeasurement(speedMbps: speed, isFullDuplex: fullDuplex)
            XCTAssertEqual(figures.quality(hasCarrier: true), expected, "\(String(describing: speed)) Mb/s, full duplex \(String(describing: fullDuplex))")
        }
    }

    func testNoCarrier_isUnknown_whateverTheFigures() {
        XCTAssertEqual(LinkMeasurement(speedMbps: 1000, isFullDuplex: true).quality(hasCarrier: false, previous: .good), .unknown)
        XCTAssertEqual(LinkMeasurement(signalDBm: -40).quality(hasCarrier: false, previous: .good), .unknown)
    }

    func testWiFi_bySignal_withoutAPreviousClass() {
        let rows: [(Int, LinkQuality)] = [(-30, .good), (-67, .good), (-68, .moderate), (-80, .moderate), (-81, .minimal), (-95, .minimal)]
        for (signal, expected) in rows {
            XCTAssertEqual(LinkMeasurement(signalDBm: signal).quality(hasCarrier: true), expected, "\(signal) dBm")
        }
    }

    /// A signal must pass a threshold by 4 dB to change the class: one that wanders around -67 or
    /// -80 dBm keeps its class.
    func testWiFi_hysteresis_aFluctuatingSignalDoesNotFlap() {
        var quality = LinkQuality.unknown
        var classes: [LinkQuality] = []
        for signal in [-60, -66, -69, -66, -70, -71, -72, -64, -66, -63, -79, -82, -84, -78, -85, -77, -76] {
            quality = LinkMeasurement(signalDBm: signal).quality(hasCarrier: true, previous: quality)
            classes.append(quality)
        }
        XCTAssertEqual(classes, [
            .good, .good, .good, .good, .good, .good, .moderate, .moderate, .moderate, .good,
            .moderate, .moderate, .moderate, .moderate, .minimal, .minimal, .moderate,
        ])
    }

    func testSignalLevel_asSysfsAndProcPrintIt() {
        XCTAssertEqual(LinkInspector.signalDBm(201), -55, "sysfs prints the 8-bit field")
        XCTAssertEqual(LinkInspector.signalDBm(-55), -55, "/proc/net/wireless and fixtures: signed")
        XCTAssertNil(LinkInspector.signalDBm(0), "no figure")
    }

    /// Only Wi-Fi and Ethernet (physical or virtual) carry their measured class; cellular, tunnels
    /// (tun reports a fixed 10 Mb/s) and loopback are unknown.
    func testClassifier_onlyWiFiAndEthernetCarryTheirQuality() {
        var traits = LinkTraits()
        traits.linkQuality = .good
        var veth = LinkState(index: 3, name: "v0", flags: [.up, .running, .lowerUp], operationalState: .up, hardwareType: 1, kind: "veth")
        veth.traits = traits
        XCTAssertEqual(InterfaceClassifier.interface(for: veth).linkQuality, .good)
        var tun = veth
        tun.kind = "tun"
        XCTAssertEqual(InterfaceClassifier.interface(for: tun).linkQuality, .unknown)
        var modem = veth
        modem.traits.driver = "qmi_wwan"
        XCTAssertEqual(InterfaceClassifier.interface(for: modem).type, .cellular)
        XCTAssertEqual(InterfaceClassifier.interface(for: modem).linkQuality, .unknown)
        var wifi = veth
        wifi.traits.isWireless = true
        XCTAssertEqual(InterfaceClassifier.interface(for: wifi).linkQuality, .good)
    }

    /// A name in `ultraConstrainedInterfaceNames` is ultra-constrained and constrained.
    func testClassifier_ultraConstrainedIsConstrainedToo() {
        var link = LinkState(index: 3, name: "v0", flags: [.up, .running, .lowerUp], operationalState: .up, hardwareType: 1, kind: "veth")
        link.traits.isConfiguredUltraConstrained = true
        let interface = InterfaceClassifier.interface(for: link)
        XCTAssertTrue(interface.isUltraConstrained)
        XCTAssertTrue(interface.isConstrained)
    }
}
