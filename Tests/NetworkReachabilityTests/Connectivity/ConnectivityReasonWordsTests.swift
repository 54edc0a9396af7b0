@testable import NetworkReachabilityCore
import Foundation
import XCTest
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// `NetworkPath.connectivityReason`'s words, and their place in the path's value and JSON.
final class ConnectivityReasonWordsTests: XCTestCase {
    func testSocketFailures_mapToTheirWord() {
        XCTAssertEqual(ConnectivityReason.socketFailure("connect to 192.0.2.1: ECONNREFUSED"), "refused")
        XCTAssertEqual(ConnectivityReason.socketFailure("recv: ECONNRESET"), "reset")
        XCTAssertEqual(ConnectivityReason.socketFailure("send: EPIPE"), "reset")
        XCTAssertEqual(ConnectivityReason.socketFailure("connect to 192.0.2.1: EHOSTUNREACH"), "no route")
        XCTAssertNil(ConnectivityReason.socketFailure("socket: EMFILE"))
        XCTAssertEqual(ProbeFailure.failed("socket: EMFILE").reason, "socket: EMFILE", "told as it is")
        XCTAssertEqual(ProbeFailure.timedOut("connect to 192.0.2.1: timed out").reason, "timed out")
        XCTAssertEqual(ConnectivityReason.none(nil), "no route")
        XCTAssertEqual(ConnectivityReason.none(.noCarrier), "no carrier")
        XCTAssertEqual(ConnectivityReason.none(.interfaceDown), "link down", "the human line's words: link down is an interface set down")
    }

    func testReason_isPartOfThePathsValue_andItsJSON() throws {
        var path = NetworkPath.unsatisfied(.noRoute)
        let plain = path
        path.connectivity = .limited
        path.connectivityReason = "refused"
        var other = path
        other.connectivityReason = "reset"
        XCTAssertNotEqual(path, other)
        XCTAssertNotEqual(path.hashValue, other.hashValue)
        XCTAssertTrue(path.description.contains("(refused)"), path.description)
        let data = try JSONEncoder().encode(path)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(object["connectivityReason"] as? String, "refused")
        XCTAssertEqual(try JSONDecoder().decode(NetworkPath.self, from: data), path)
        let none = try XCTUnwrap(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(plain)) as? [String: Any])
        XCTAssertTrue(none["connectivityReason"] is NSNull, "null when none")
    }
}
