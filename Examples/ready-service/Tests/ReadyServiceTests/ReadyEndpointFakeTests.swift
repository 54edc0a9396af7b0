import NetworkReachability
import NetworkReachabilityTesting
import ReadyService
import XCTest

/// `/health/ready` over a `FakePathMonitor`: no root, no namespace, a real HTTP request.
final class ReadyEndpointFakeTests: XCTestCase {
    func testReady_followsTheFake_offlineThenOnline() async throws {
        let monitor = FakePathMonitor(path: .offline())
        try await withRunningService(ReadyServiceConfiguration(makeMonitor: { monitor })) { port in
            try await eventually { try httpGet(port: port, "/health/ready").status == 503 }
            XCTAssertEqual(try httpGet(port: port, "/health/live").status, 200)

            monitor.send(.online())
            try await eventually { try httpGet(port: port, "/health/ready").status == 200 }
            let body = try httpGet(port: port, "/health/ready").body
            XCTAssertTrue(body.contains(#""ready":true"#), body)
            XCTAssertTrue(body.contains(#""interface":{"index":2,"linkQuality":"good","name":"eth0","type":"wiredEthernet"}"#), body)

            monitor.send(.offline(.noCarrier))
            try await eventually { try httpGet(port: port, "/health/ready").status == 503 }
        }
        XCTAssertEqual(monitor.cancelCount, 1, "shutdown cancels the monitor")
    }
}
