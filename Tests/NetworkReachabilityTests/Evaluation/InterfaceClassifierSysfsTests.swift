import Foundation
import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// `LinkInspector.traitsFromSysfs`: what `ROOT/class/net/IFNAME/...` says of a device, read from a
/// directory of fixtures laid out as the kernel and udev lay out sysfs.
final class InterfaceClassifierSysfsTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nrx-sysfs-unit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: root)
        super.tearDown()
    }

    private func write(_ text: String, _ relative: String) throws {
        let path = "\(root)/\(relative)"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    private func mkdir(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: "\(root)/\(relative)", withIntermediateDirectories: true)
    }

    private func symlink(_ relative: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: "\(root)/\(relative)", withDestinationPath: destination)
    }

    private func traits(_ name: String) -> LinkTraits {
        LinkInspector.traitsFromSysfs(root: root, name: name)
    }

    func testNoDirectory_givesNoTraits() {
        XCTAssertEqual(traits("eth0"), LinkTraits())
    }

    func testUevent_devtype() throws {
        try write("DEVTYPE=wlan\nINTERFACE=wlan0\nIFINDEX=3\n", "class/net/wlan0/uevent")
        try write("INTERFACE=wwan0\nDEVTYPE=wwan\n", "class/net/wwan0/uevent")
        try write("DEVTYPE=bluetooth\nINTERFACE=bnep0\n", "class/net/bnep0/uevent")
        try write("INTERFACE=eth0\nIFINDEX=2\n", "class/net/eth0/uevent")
        XCTAssertEqual(traits("wlan0").deviceType, "wlan")
        XCTAssertEqual(traits("wwan0").deviceType, "wwan")
        XCTAssertEqual(traits("bnep0").deviceType, "bluetooth")
        XCTAssertNil(traits("eth0").deviceType)
        XCTAssertFalse(traits("wlan0").isWireless, "DEVTYPE is not the 802.11 evidence of phy80211/wireless")
    }

    /// The kernel writes `\n`; `UEvent.parse` also splits on `\r`, so a fixture with CRLF line ends
    /// (written on another system) must read the same. In Swift "\r\n" is one Character, equal to
    /// neither "\r" nor "\n".
    func testUevent_withCRLFLineEnds_readsTheSame() throws {
        try write("DEVTYPE=bluetooth\r\nINTERFACE=bnep0\r\n", "class/net/bnep0/uevent")
        XCTAssertEqual(traits("bnep0").deviceType, "bluetooth")
        XCTAssertEqual(UEvent.parse("DEVTYPE=wlan\r\nINTERFACE=wlan0\r\n"), ["DEVTYPE": "wlan", "INTERFACE": "wlan0"])
    }

    func testPhy80211Symlink_isWireless() throws {
        try mkdir("class/ieee80211/phy0")
        try mkdir("class/net/wlp2s0")
        try symlink("class/net/wlp2s0/phy80211", to: "../../ieee80211/phy0")
        XCTAssertTrue(traits("wlp2s0").isWireless)
    }

    func testWirelessDirectory_isWireless() throws {
        try mkdir("class/net/wlan1/wireless")
        XCTAssertTrue(traits("wlan1").isWireless)
    }

    func testDanglingPhy80211Symlink_isNotWireless() throws {
        try mkdir("class/net/wlan2")
        try symlink("class/net/wlan2/phy80211", to: "../../ieee80211/phy9")
        XCTAssertFalse(traits("wlan2").isWireless, "access(F_OK) follows the link; nothing behind it")
    }

    func testDriverSymlink_basenameIsTheDriver() throws {
        try mkdir("devices/usb1/1-1/1-1:1.4")
        try mkdir("bus/usb/drivers/qmi_wwan")
        try symlink("devices/usb1/1-1/1-1:1.4/driver", to: "../../../../bus/usb/drivers/qmi_wwan")
        try mkdir("class/net/wwp0s20u1i4")
        try symlink("class/net/wwp0s20u1i4/device", to: "../../../devices/usb1/1-1/1-1:1.4")
        XCTAssertEqual(traits("wwp0s20u1i4").driver, "qmi_wwan")
    }

    func testDriverFromDeviceUevent_whenThereIsNoDriverSymlink() throws {
        try write("DRIVER=rndis_host\nPRODUCT=4ee/4ee7/409\n", "class/net/usb0/device/uevent")
        XCTAssertEqual(traits("usb0").driver, "rndis_host")
    }

    func testUSBProduct_isReadOneLevelAboveTheInterface() throws {
        try mkdir("devices/usb2/2-1/2-1:1.0")
        try mkdir("bus/usb/drivers/cdc_ether")
        try symlink("devices/usb2/2-1/2-1:1.0/driver", to: "../../../../bus/usb/drivers/cdc_ether")
        try write("Pixel 7\n", "devices/usb2/2-1/product")
        try mkdir("class/net/usb1")
        try symlink("class/net/usb1/device", to: "../../../devices/usb2/2-1/2-1:1.0")
        let found = traits("usb1")
        XCTAssertEqual(found.driver, "cdc_ether")
        XCTAssertEqual(found.usbProduct, "Pixel 7", "trailing newline trimmed")
        XCTAssertTrue(InterfaceClassifier.isExpensive(LinkState(index: 5, name: "usb1", flags: [.up], operationalState: .up,
                                                                hardwareType: 1, kind: nil, traits: found)))
    }

    func testAHugeUeventFile_isReadBounded_andItsFirstLinesCount() throws {
        try write("DEVTYPE=wlan\n" + String(repeating: "X=1\n", count: 100_000), "class/net/big0/uevent")
        XCTAssertEqual(traits("big0").deviceType, "wlan")
    }
}
