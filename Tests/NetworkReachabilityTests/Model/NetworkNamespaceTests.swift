import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// `NetworkNamespace`: the nsfs file each case names (the command's `--netns` parsing: CommandInterfacesTests).
final class NetworkNamespaceTests: XCTestCase {
    func testPath() {
        XCTAssertEqual(NetworkNamespace.current.path, "/proc/self/ns/net")
        XCTAssertEqual(NetworkNamespace.named("blue").path, "/run/netns/blue")
        XCTAssertEqual(NetworkNamespace.path("/proc/1234/ns/net").path, "/proc/1234/ns/net")
        XCTAssertEqual(NetworkNamespace.path("/var/run/netns/red").path, "/var/run/netns/red")
    }

    func testDescription() {
        XCTAssertEqual(NetworkNamespace.current.description, "current")
        XCTAssertEqual(NetworkNamespace.named("blue").description, "blue")
        XCTAssertEqual(NetworkNamespace.path("/proc/1/ns/net").description, "/proc/1/ns/net")
    }

    func testHashable() {
        XCTAssertEqual(Set([NetworkNamespace.current, .current, .named("a"), .path("a"), .named("a")]).count, 3)
    }
}
