import Dispatch
import XCTest

/// `reachability watch ::` on a SLAAC host: it tells a route's expiry, which the kernel does not announce.
final class RouterAdvertisementCommandTests: CommandTestCase {
    override class var makesNamespace: Bool { false }

    func testWatchZeroAddress_tellsTheExpiryOfTheRoutersRoute() throws {
        try withRouterLAN { lan in
            let watch = try startReachability(["watch", "--json", "--netns", lan.client.name, "::"])
            defer { watch.terminateIfRunning() }
            let first = try parseRecord(try XCTUnwrap(watch.stdout.nextLine(before: .now() + Self.deadline), "the initial record"))
            XCTAssertEqual(first["status"] as? String, "notReachable", "no route before the advertisement")

            let sent = try lan.advertise(lifetime: 3)
            let reachable = try parseRecord(try XCTUnwrap(watch.stdout.nextLine(before: .now() + Self.deadline), "the router's route"))
            XCTAssertEqual(reachable["status"] as? String, "reachableViaWiFi")
            XCTAssertEqual((reachable["path"] as? [String: Any])?["gateways"] as? [String], [lan.gateways[0]])

            let expired = try parseRecord(try XCTUnwrap(watch.stdout.nextLine(before: .now() + Self.deadline), "the expiry"))
            let told = DispatchTime.now()
            XCTAssertEqual(expired["status"] as? String, "notReachable", "the expiry is told")
            XCTAssertNil(try lan.kernelRoute().gateway, "ip -6 route get refuses")
            XCTAssertTrue(try lan.tableLists(gateway: lan.gateways[0]), "no message: the expired route is still listed")
            XCTAssertLessThanOrEqual(told.milliseconds(since: sent.after + .seconds(3)), 1500, "told within 1.5 s of the expiry")
        }
    }
}
