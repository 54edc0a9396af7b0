import NetworkReachability
import NetworkReachabilityTesting
import XCTest

/// The fake answers `fetchCurrentPath()` at once, and says "online, internet full" or "online,
/// portal" in one line.
final class FakePathMonitorConnectivityTests: XCTestCase {
    func testFetchCurrentPath_throughThePathMonitoringProtocol_answersTheLastSend() async {
        // Given: code that knows only `any PathMonitoring`, over a fake
        let fake = FakePathMonitor(path: .offline())
        let monitor: any PathMonitoring = fake

        // When: the test sends a path, and the code reads it without blocking
        fake.send(.online(connectivity: .full))
        let path = await monitor.fetchCurrentPath()

        // Then: the path sent, unstarted and unsubscribed
        XCTAssertEqual(path.status, .satisfied)
        XCTAssertEqual(path.connectivity, .full)
        XCTAssertFalse(fake.isStarted)
    }

    func testOnlineWithConnectivity_isSatisfied_withTheAnswerAndItsProbe() {
        let path = NetworkPath.online(connectivity: .full)

        XCTAssertEqual(path.status, .satisfied)
        XCTAssertEqual(path.interface, .fakeEthernet)
        XCTAssertEqual(path.connectivity, .full)
        XCTAssertNil(path.portalURL)
        XCTAssertEqual(path.connectivitySource, .probe("http://connectivity.fake/generate_204"))
        XCTAssertNil(NetworkPath.online(connectivity: .unknown).connectivitySource, "no answer, no source")
    }

    func testCaptivePortal_isSatisfied_portal_withItsURL() {
        let path = NetworkPath.captivePortal("http://login.example/")

        XCTAssertEqual(path.status, .satisfied)
        XCTAssertEqual(path.connectivity, .portal)
        XCTAssertEqual(path.portalURL, "http://login.example/")
        XCTAssertEqual(NetworkPath.captivePortal().portalURL, "http://portal.fake/login")
    }

    func testOnline_withoutConnectivity_staysUnknown_asBefore() {
        XCTAssertEqual(NetworkPath.online().connectivity, .unknown)
        XCTAssertNil(NetworkPath.online().connectivitySource)
    }
}
