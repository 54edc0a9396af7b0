import Foundation
import NetworkReachability
import NetworkReachabilityTesting
import XCTest

/// Paths, interfaces, flags and statuses encode with the keys of `reachability --json` records
/// and decode back unchanged.
final class CodableTests: XCTestCase {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    func testPath_roundTrips_withTheRecordsKeys() throws {
        // Given: a host name's satisfied path over an expensive interface
        var path = NetworkPath.online(via: .fakeCellular)
        path.resolvedAddresses = [try IPAddress("192.0.2.10")]
        path.resolvedAddressesAreStale = true
        path.captivePortal = CaptivePortalStatus(captive: true, userPortalURL: "https://portal.example/", secondsRemaining: 60)

        // When
        let data = try encoder.encode(path)
        let decoded = try JSONDecoder().decode(NetworkPath.self, from: data)

        // Then: the same value, and the record's path keys, plus flags and the addresses
        XCTAssertEqual(decoded, path)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(Set(object.keys), Self.recordPathKeys.union(["flags", "addresses", "addressesAreStale"]))
        XCTAssertEqual(object["flags"] as? [String], ["reachable", "isWWAN"])
        XCTAssertEqual(object["status"] as? String, "satisfied")
    }

    func testUnsatisfiedPath_encodesNullsAsARecordDoes() throws {
        let text = String(decoding: try encoder.encode(NetworkPath.offline(.prohibitedRoute)), as: UTF8.self)
        XCTAssertTrue(text.contains(#""interface":null"#), text)
        XCTAssertTrue(text.contains(#""unsatisfiedReason":"prohibitedRoute""#), text)
        XCTAssertFalse(text.contains("addresses"), "no addresses for an address target: \(text)")
        XCTAssertEqual(try JSONDecoder().decode(NetworkPath.self, from: Data(text.utf8)), .offline(.prohibitedRoute))
    }

    func testCableOut_encodesNoCarrier_andDecodesTheWordBefore020() throws {
        let text = String(decoding: try encoder.encode(NetworkPath.unplugged()), as: UTF8.self)
        XCTAssertTrue(text.contains(#""status":"unsatisfied""#), text)
        XCTAssertTrue(text.contains(#""unsatisfiedReason":"noCarrier""#), text)
        XCTAssertEqual(try JSONDecoder().decode(NetworkPath.self, from: Data(text.utf8)), .unplugged())
        let logged = text.replacingOccurrences(of: #""noCarrier""#, with: #""linkDown""#)
        XCTAssertEqual(try JSONDecoder().decode(NetworkPath.self, from: Data(logged.utf8)).unsatisfiedReason, .noCarrier)
    }

    func testInterface_encodesNameIndexTypeQuality_andTraitsOnlyWhenSet() throws {
        let plain = String(decoding: try encoder.encode(NetworkInterface.fakeEthernet), as: UTF8.self)
        XCTAssertEqual(plain, #"{"index":2,"linkQuality":"good","name":"eth0","type":"wiredEthernet"}"#)
        let measured = NetworkInterface(name: "wlan0", index: 3, type: .wifi, isUltraConstrained: true, linkQuality: .moderate)
        let measuredText = String(decoding: try encoder.encode(measured), as: UTF8.self)
        XCTAssertEqual(measuredText, #"{"index":3,"isUltraConstrained":true,"linkQuality":"moderate","name":"wlan0","type":"wifi"}"#)
        XCTAssertEqual(try JSONDecoder().decode(NetworkInterface.self, from: Data(measuredText.utf8)), measured)
        let expensive = try encoder.encode(NetworkInterface.fakeCellular)
        XCTAssertEqual(try JSONDecoder().decode(NetworkInterface.self, from: expensive), .fakeCellular)
    }

    func testFlags_encodeAsNames_andDecodeFromNamesOrTheRawNumber() throws {
        let flags: ReachabilityFlags = [.reachable, .isDirect]
        XCTAssertEqual(String(decoding: try encoder.encode(flags), as: UTF8.self), #"["reachable","isDirect"]"#)
        XCTAssertEqual(try JSONDecoder().decode(ReachabilityFlags.self, from: Data("131074".utf8)), flags)
        XCTAssertThrowsError(try JSONDecoder().decode(ReachabilityFlags.self, from: Data(#"["reachible"]"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("'reachible' is not a flag"), "\(error)")
        }
    }

    func testStatus_encodesTheCaseName() throws {
        for status in [ReachabilityStatus.unknown, .notReachable, .reachableViaWWAN, .reachableViaWiFi] {
            let data = try encoder.encode(status)
            XCTAssertEqual(String(decoding: data, as: UTF8.self), "\"\(status)\"")
            XCTAssertEqual(try JSONDecoder().decode(ReachabilityStatus.self, from: data), status)
        }
        XCTAssertThrowsError(try JSONDecoder().decode(ReachabilityStatus.self, from: Data(#""online""#.utf8)))
    }

    /// The keys of a record's `path` object, as cli.md lists them, and connectivity.md's four.
    static let recordPathKeys: Set<String> = [
        "status", "unsatisfiedReason", "interface", "gateways", "availableInterfaces", "isExpensive",
        "isConstrained", "linkQuality", "supportsIPv4", "supportsIPv6", "supportsDNS", "connectivity", "portalURL", "connectivityReason",
        "captivePortalAPI", "captivePortal",
    ]
}
