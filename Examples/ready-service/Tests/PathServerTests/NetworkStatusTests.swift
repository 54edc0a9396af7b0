import NetworkReachabilityTesting
import PathServer
import XCTest

final class NetworkStatusTests: XCTestCase {
    func testNetworkStatus_followsTheMonitor() async {
        let monitor = FakePathMonitor(path: .online(connectivity: .full))
        var status = await networkStatus(of: monitor)
        XCTAssertTrue(status.online)
        XCTAssertEqual(status.connectivity, .full)

        monitor.send(.captivePortal("http://login.example/"))
        status = await networkStatus(of: monitor)
        XCTAssertEqual(status.connectivity, .portal)
        XCTAssertEqual(status.path.portalURL, "http://login.example/")

        monitor.send(.offline())
        status = await networkStatus(of: monitor)
        XCTAssertFalse(status.online)
    }
}
