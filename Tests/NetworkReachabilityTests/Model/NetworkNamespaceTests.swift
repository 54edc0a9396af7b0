import XCTest
@testable import NetworkReachability

/// `NetworkNamespace`: the nsfs file each case names, and the command's `--netns` parsing.
final class NetworkNamespaceTests: XCTestCase {
    func testPath() {
        XCTAssertEqual(NetworkNamespace.current.path, "/proc/self/ns/net")
        XCTAssertEqual(NetworkNamespace.named("blue").path, "/run/netns/blue")
        XCTAssertEqual(NetworkNamespace.path("/proc/1234/ns/net").path, "/proc/1234/ns/net")
        XCTAssertEqual(NetworkNamespace.path("/var/run/netns/red").path, "/var/run/netns/red")
    }

    func testInitArgument_aNameIsNamed() {
        XCTAssertEqual(NetworkNamespace(argument: "blue"), .named("blue"))
        XCTAssertEqual(NetworkNamespace(argument: "nrx-1234"), .named("nrx-1234"))
        XCTAssertEqual(NetworkNamespace(argument: "current"), .named("current"), "only the API spells the own namespace")
    }

    func testInitArgument_aSlashMakesAPath() {
        XCTAssertEqual(NetworkNamespace(argument: "/proc/1/ns/net"), .path("/proc/1/ns/net"))
        XCTAssertEqual(NetworkNamespace(argument: "/run/netns/blue"), .path("/run/netns/blue"))
        XCTAssertEqual(NetworkNamespace(argument: "./ns"), .path("./ns"))
        XCTAssertEqual(NetworkNamespace(argument: "a/b"), .path("a/b"))
        XCTAssertEqual(NetworkNamespace(argument: "/"), .path("/"))
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
