import Dispatch
import NetworkReachability
import XCTest

/// The messages that come with a router's advertisement wake the look for a silent refresh at
/// once, before its schedule would: the ND user options (`RTM_NEWNDUSEROPT`) of an RA that
/// carries a DNS server.
final class RouterAdvertisementHintTests: XCTestCase {
    func testRefreshAfterExpiry_withUserOptions_isToldAtOnce() throws {
        try withWatchedRouterLAN { lan, watched in
            let router = lan.gateways[0]
            try lan.advertise(lifetime: 2, dnsServer: "2001:db8::53")
            try watched.waitUntilReachable(via: router)
            let expired = try watched.waitUntilUnreachable("not reachable once the lifetime passed")
            // Between two of the watch's looks (1 s apart from the expiry): only the hint can tell it sooner.
            pause(until: expired[0].at + .milliseconds(1300))
            XCTAssertTrue(try lan.tableLists(gateway: router), "the expired route is still in the table")
            let again = try lan.advertise(lifetime: 60, dnsServer: "2001:db8::53")
            let told = try watched.waitUntilReachable(via: router, "reachable again")
            XCTAssertEqual(try lan.kernelRoute().gateway, router, "ip -6 route get routes via the router again")
            for delivery in told {
                let delay = delivery.at.milliseconds(since: again.after)
                XCTAssertLessThan(delay, 400, "told on the RA's user options, not at the next look 700 ms later")
                print("refresh with user options told \(delay) ms after the advertisement")
            }
        }
    }
}
