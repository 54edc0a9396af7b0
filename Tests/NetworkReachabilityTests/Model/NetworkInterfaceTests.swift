import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

final class NetworkInterfaceTests: XCTestCase {
    func testInterfaceTypeDescription_isTheCaseName() {
        XCTAssertEqual(NetworkInterface.InterfaceType.allCases.map(\.description),
                       ["other", "wifi", "cellular", "wiredEthernet", "loopback"])
    }

    func testDescription() {
        XCTAssertEqual(NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet).description, "eth0(2, wiredEthernet)")
        XCTAssertEqual(NetworkInterface(name: "lo", index: 1, type: .loopback).description, "lo(1, loopback)")
    }
}
