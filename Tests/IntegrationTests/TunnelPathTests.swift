import NetworkReachability
import Synchronization
import XCTest

/// Tunnels in namespaces: a VPN's tun that takes the default route with the two /1 halves, and a
/// vxlan overlay. The path names the link's kind and says it is tunneled.
final class TunnelPathTests: XCTestCase {
    private static let timeout: TimeInterval = 30

    func testTunWithTheHalfDefaultRoutes_carriesTheGeneralPathAndTheInternet() throws {
        try withNamespace { namespace in
            // Given: a veth LAN with a default route, and a tun held open so it has carrier
            try namespace.addVeth("v0", addresses: ["10.42.0.1/24"])
            try namespace.waitForLink("v0", carrier: true)
            try namespace.ip("route", "add", "default", "via", "10.42.0.2")
            try namespace.addTun("t0", addresses: ["10.43.0.1/24"])
            let holder = try TunCarrierHolder(device: "t0", namespace: namespace)
            defer { holder.stop() }
            try namespace.waitForLink("t0", carrier: true)
            let general = try namespace.generalMonitor()
            let internet = try namespace.monitor("198.51.100.7")
            XCTAssertEqual(general.currentPath.interface?.name, "v0")
            XCTAssertEqual(general.currentPath.interface?.kind, "veth")
            XCTAssertFalse(general.currentPath.isTunneled)

            // A watcher of the general path, waiting for the tunnel to take it
            let tunneled = expectation(description: "the general path is tunneled")
            let waiting = Task {
                if let path = try await general.waitUntilSatisfied(timeout: .seconds(60), isSatisfied: { $0.isTunneled }),
                   path.interface?.name == "t0" {
                    tunneled.fulfill()
                }
            }
            defer { waiting.cancel() }

            // When: the VPN client installs 0.0.0.0/1 and 128.0.0.0/1 over the tun, as OpenVPN's def1 does
            try namespace.ip("route", "add", "0.0.0.0/1", "dev", "t0")
            try namespace.ip("route", "add", "128.0.0.0/1", "dev", "t0")

            // Then: the general path and a remote address leave by the tun; the LAN stays on the veth
            wait(for: [tunneled], timeout: Self.timeout)
            let remote = internet.currentPath
            XCTAssertEqual(remote.interface?.name, "t0")
            XCTAssertEqual(remote.interface?.kind, "tun")
            XCTAssertTrue(remote.isTunneled)
            XCTAssertEqual(remote.status, .satisfied)
            let lan = try namespace.monitor("10.42.0.9").currentPath
            XCTAssertFalse(lan.isTunneled, "\(lan)")
        }
    }

    func testVxlanOverlay_pathNamesItsKindAndIsTunneled() throws {
        try withNamespace { namespace in
            // Given: a veth underlay and a vxlan overlay on it
            try namespace.addVeth("v0", addresses: ["10.42.0.1/24"])
            try namespace.waitForLink("v0", carrier: true)
            try namespace.ip("link", "add", "vx0", "type", "vxlan", "id", "42", "dev", "v0", "remote", "10.42.0.2", "dstport", "4789")
            try namespace.addAddress("10.44.0.1/24", to: "vx0")
            try namespace.ip("link", "set", "vx0", "up")
            try namespace.waitForLink("vx0", carrier: true)

            // When
            let path = try namespace.monitor("10.44.0.9").currentPath

            // Then
            XCTAssertEqual(path.status, .satisfied, "\(path)")
            XCTAssertEqual(path.interface?.name, "vx0")
            XCTAssertEqual(path.interface?.kind, "vxlan")
            XCTAssertEqual(path.interface?.type, .other)
            XCTAssertTrue(path.isTunneled)
            XCTAssertEqual(path.availableInterfaces.first { $0.name == "v0" }?.kind, "veth")
        }
    }
}
