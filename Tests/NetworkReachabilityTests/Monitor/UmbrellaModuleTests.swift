import NetworkReachability
import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// `NetworkReachability` is the core re-exported plus `ReachabilityManager` (issue 13): every name
/// api.md places in `NetworkReachability` must still be found there, qualified too.
final class UmbrellaModuleTests: XCTestCase {
    /// Guards at compile time above all: were the re-export lost, these names would not resolve
    /// and the test target would not build.
    func testCoreNames_qualifiedWithTheUmbrellaModule_areTheCoresTypes() {
        XCTAssertTrue(NetworkReachability.PathMonitor.self == NetworkReachabilityCore.PathMonitor.self)
        XCTAssertTrue(NetworkReachability.NetworkPath.self == NetworkReachabilityCore.NetworkPath.self)
        XCTAssertTrue(NetworkReachability.ReachabilityError.self == NetworkReachabilityCore.ReachabilityError.self)
    }

    func testManagerNotification_keepsAFNetworkingsName() {
        XCTAssertEqual(NetworkReachability.ReachabilityManager.didChangeNotification.rawValue,
                       "com.alamofire.networking.reachability.change")
    }
}
