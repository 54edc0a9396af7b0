import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// `ReachabilityStatus(flags:)` against AFNetworking's `AFNetworkReachabilityStatusForFlags`, over every flag combination.
final class ReachabilityStatusTests: XCTestCase {
    /// AFNetworking's predicate, transcribed over raw `SCNetworkReachabilityFlags` bits so that it shares
    /// nothing with the library: returns the `AFNetworkReachabilityStatus` number (0, 1 or 2).
    private static func afNetworkingStatus(_ flags: UInt32) -> Int {
        let kReachable: UInt32 = 1 << 1
        let kConnectionRequired: UInt32 = 1 << 2
        let kConnectionOnTraffic: UInt32 = 1 << 3
        let kInterventionRequired: UInt32 = 1 << 4
        let kConnectionOnDemand: UInt32 = 1 << 5
        let kIsWWAN: UInt32 = 1 << 18

        let isReachable = (flags & kReachable) != 0
        let needsConnection = (flags & kConnectionRequired) != 0
        let canConnectionAutomatically = (flags & kConnectionOnDemand) != 0 || (flags & kConnectionOnTraffic) != 0
        let canConnectWithoutUserInteraction = canConnectionAutomatically && (flags & kInterventionRequired) == 0
        let isNetworkReachable = isReachable && (!needsConnection || canConnectWithoutUserInteraction)

        if !isNetworkReachable { return 0 }  // AFNetworkReachabilityStatusNotReachable
        if (flags & kIsWWAN) != 0 { return 1 }  // AFNetworkReachabilityStatusReachableViaWWAN
        return 2  // AFNetworkReachabilityStatusReachableViaWiFi
    }

    func testInitFlags_overAll512Combinations_equalsAFNetworking() {
        var counts = [Int: Int]()
        for combination in 0..<(1 << 9) {
            // Given
            let flags = Fixture.flags(combination: combination)
            // When
            let status = ReachabilityStatus(flags: flags)
            // Then
            let expected = Self.afNetworkingStatus(flags.rawValue)
            XCTAssertEqual(status.rawValue, expected, "flags \(flags) (\(flags.names))")
            counts[status.rawValue, default: 0] += 1
        }
        // Every outcome occurs, and never `unknown`: that is only the state before a first evaluation.
        XCTAssertEqual(counts.keys.sorted(), [0, 1, 2])
        XCTAssertEqual(counts.values.reduce(0, +), 512)
    }

    func testInitFlags_namedCases() {
        XCTAssertEqual(ReachabilityStatus(flags: []), .notReachable)
        XCTAssertEqual(ReachabilityStatus(flags: [.reachable]), .reachableViaWiFi)
        XCTAssertEqual(ReachabilityStatus(flags: [.reachable, .isDirect]), .reachableViaWiFi)
        XCTAssertEqual(ReachabilityStatus(flags: [.reachable, .isLocalAddress, .isDirect]), .reachableViaWiFi)
        XCTAssertEqual(ReachabilityStatus(flags: [.reachable, .isWWAN, .transientConnection]), .reachableViaWWAN)
        XCTAssertEqual(ReachabilityStatus(flags: [.reachable, .connectionRequired]), .notReachable)
        XCTAssertEqual(ReachabilityStatus(flags: [.reachable, .connectionRequired, .connectionOnTraffic]), .reachableViaWiFi)
        XCTAssertEqual(ReachabilityStatus(flags: [.reachable, .connectionRequired, .connectionOnDemand]), .reachableViaWiFi)
        XCTAssertEqual(
            ReachabilityStatus(flags: [.reachable, .connectionRequired, .connectionOnDemand, .interventionRequired]),
            .notReachable)
        XCTAssertEqual(ReachabilityStatus(flags: [.isWWAN]), .notReachable)
        XCTAssertEqual(ReachabilityStatus(flags: [.connectionOnTraffic, .isDirect]), .notReachable)
    }

    func testRawValues_areAFNetworkingsNumbers() {
        XCTAssertEqual(ReachabilityStatus.unknown.rawValue, -1)
        XCTAssertEqual(ReachabilityStatus.notReachable.rawValue, 0)
        XCTAssertEqual(ReachabilityStatus.reachableViaWWAN.rawValue, 1)
        XCTAssertEqual(ReachabilityStatus.reachableViaWiFi.rawValue, 2)
        XCTAssertEqual(ReachabilityStatus(rawValue: -1), .unknown)
        XCTAssertEqual(ReachabilityStatus(rawValue: 2), .reachableViaWiFi)
        XCTAssertNil(ReachabilityStatus(rawValue: 3))
    }

    func testIsReachable_onlyForTheTwoReachableCases() {
        XCTAssertFalse(ReachabilityStatus.unknown.isReachable)
        XCTAssertFalse(ReachabilityStatus.notReachable.isReachable)
        XCTAssertTrue(ReachabilityStatus.reachableViaWWAN.isReachable)
        XCTAssertTrue(ReachabilityStatus.reachableViaWiFi.isReachable)
    }

    func testLocalizedDescription_isAFNetworkingsString() {
        XCTAssertEqual(ReachabilityStatus.unknown.localizedDescription, "Unknown")
        XCTAssertEqual(ReachabilityStatus.notReachable.localizedDescription, "Not Reachable")
        XCTAssertEqual(ReachabilityStatus.reachableViaWWAN.localizedDescription, "Reachable via WWAN")
        XCTAssertEqual(ReachabilityStatus.reachableViaWiFi.localizedDescription, "Reachable via WiFi")
    }

    func testDescription_isTheCaseNameThatJSONPrints() {
        XCTAssertEqual(ReachabilityStatus.unknown.description, "unknown")
        XCTAssertEqual(ReachabilityStatus.notReachable.description, "notReachable")
        XCTAssertEqual(ReachabilityStatus.reachableViaWWAN.description, "reachableViaWWAN")
        XCTAssertEqual(ReachabilityStatus.reachableViaWiFi.description, "reachableViaWiFi")
    }
}
