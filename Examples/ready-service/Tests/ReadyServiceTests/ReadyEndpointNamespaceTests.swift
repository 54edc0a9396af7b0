import NetworkReachability
import ReadyService
import XCTest

/// End to end: the service's `/health/ready`, asked over real HTTP, follows a real namespace whose
/// network the test changes (root only).
final class ReadyEndpointNamespaceTests: XCTestCase {
    func testReady_followsTheNamespacesRouteAndCarrier() async throws {
        try await TestNamespace.with("e2e") { namespace in
            // Given: a LAN without a default route; the service watches a remote address there
            try namespace.ip("link", "add", "v0", "type", "veth", "peer", "name", "v0p")
            try namespace.ip("addr", "add", "10.46.0.1/24", "dev", "v0")
            try namespace.ip("link", "set", "v0p", "up")
            try namespace.ip("link", "set", "v0", "up")
            let name = namespace.name
            let configuration = ReadyServiceConfiguration(makeMonitor: {
                try PathMonitor(address: "198.51.100.1", namespace: .named(name))
            })

            try await withRunningService(configuration) { port in
                try await eventually { try httpGet(port: port, "/health/ready").status == 503 }

                // When: a default route appears
                try namespace.ip("route", "add", "default", "via", "10.46.0.2")

                // Then: ready, over the LAN's gateway
                try await eventually { try httpGet(port: port, "/health/ready").status == 200 }
                let body = try httpGet(port: port, "/health/ready").body
                XCTAssertTrue(body.contains(#""name":"v0""#), body)
                XCTAssertTrue(body.contains(#""gateways":["10.46.0.2"]"#), body)

                // When: the LAN loses its carrier
                try namespace.ip("link", "set", "v0p", "down")

                // Then: not ready, and the body says why
                try await eventually { try httpGet(port: port, "/health/ready").status == 503 }
                let down = try httpGet(port: port, "/health/ready").body
                XCTAssertTrue(down.contains(#""unsatisfiedReason":"noCarrier""#), down)
            }
        }
    }
}
