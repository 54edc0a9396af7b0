@testable import NetworkReachabilityCore
import XCTest
#if canImport(Glibc)
import Glibc
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
#endif

/// `RTA_CACHEINFO`'s `rta_expires` (clock ticks) read into `RouteEntry.expiresIn`.
final class RouteMessageParserExpiryTests: XCTestCase {
    typealias Builder = RouteMessageBuilder
    typealias Kind = RouteAttributes.Kind

    /// `struct rta_cacheinfo` with `expires` ticks, the rest 0.
    private func cacheInfo(expires: Int32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 32)
        withUnsafeBytes(of: expires) { bytes.replaceSubrange(8..<12, with: $0) }
        return bytes
    }

    private func parsed(expires: Int32) -> RouteEntry? {
        var message = Builder()
        message.family = UInt8(AF_INET6)
        message.destinationLength = 0
        message.add(Kind.gateway, address: "fe80::1")
        message.add(Kind.outputInterface, u32: 2)
        message.add(Kind.cacheInfo, cacheInfo(expires: expires))
        return message.parsed()
    }

    func testExpires_isTheTimeLeft_inClockTicks() {
        let ticks = Int32(RouteMessageParser.ticksPerSecond)
        XCTAssertEqual(parsed(expires: 4 * ticks)?.expiresIn, .seconds(4))
        XCTAssertEqual(parsed(expires: ticks / 2)?.expiresIn, .milliseconds(500))
    }

    func testNoExpiry_orAnExpiredRoute_isNil() {
        XCTAssertNil(parsed(expires: 0)?.expiresIn, "0: the route does not expire")
        XCTAssertNil(parsed(expires: -300)?.expiresIn, "negative: expired, waiting for its collection")
        XCTAssertNotNil(parsed(expires: 0), "the route itself is read")
    }

    func testShortCacheInfo_makesTheMessageMalformed_asLibnlDoes() {
        var message = Builder()
        message.add(Kind.outputInterface, u32: 2)
        message.add(Kind.cacheInfo, [UInt8](repeating: 0, count: 12))
        XCTAssertNil(message.parsed())
    }
}
