import NetworkReachability
import ReachabilityCompat
import XCTest

/// Issue 31: a file that imports both NetworkReachability and ReachabilityCompat meets no
/// ambiguous name: `IPAddress` is NetworkReachability's struct (ReachabilityCompat declares no
/// `protocol IPAddress`), and each Apple name is a type of its own beside ours. And Apple's
/// shapes map ours: gateways as endpoints, every Linux reason as `notAvailable`, the physical link
/// under a VPN.
final class CompatBothModulesTests: XCTestCase {
    private let eth0 = NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet, linkQuality: .good)
    private let wlan0 = NetworkInterface(name: "wlan0", index: 3, type: .wifi, linkQuality: .moderate)
    private let wg0 = NetworkInterface(name: "wg0", index: 4, type: .other, kind: "wireguard")

    private func path(_ status: NetworkPath.Status, reason: NetworkPath.UnsatisfiedReason? = nil, via interface: NetworkInterface?,
                      available: [NetworkInterface], gateways: [IPAddress] = []) -> NetworkPath {
        NetworkPath(status: status, unsatisfiedReason: reason, flags: status == .satisfied ? [.reachable] : [],
                    interface: interface, availableInterfaces: available, gateways: gateways, isExpensive: false,
                    isConstrained: false, supportsIPv4: true, supportsIPv6: false, supportsDNS: true)
    }

    func testBothModules_eachNameMeansOneType() throws {
        let ours: IPAddress = try IPAddress("192.0.2.1")
        let apples: IPv4Address = try XCTUnwrap(IPv4Address("192.0.2.1"))
        XCTAssertEqual(apples.address, ours)
        XCTAssertEqual(apples.rawValue, Data([192, 0, 2, 1]))
        XCTAssertNil(IPv4Address("2001:db8::1"))
        let v6: IPv6Address = try XCTUnwrap(IPv6Address("fe80::1%eth0"))
        XCTAssertTrue(v6.isLinkLocal)
        XCTAssertEqual(IPv6Address("::ffff:10.0.0.1")?.asIPv4, IPv4Address("10.0.0.1"))
        let quality: LinkQuality = .good
        let appleQuality: NWPath.LinkQuality = .good
        XCTAssertEqual(quality.description, "\(appleQuality)")
        let _: NetworkPath.UnsatisfiedReason = .noRoute
        let _: NWPath.UnsatisfiedReason = .notAvailable
        let _: NetworkInterface.InterfaceType = .wifi
        let _: NWInterface.InterfaceType = .wifi
        XCTAssertEqual(NWEndpoint.Host("10.0.0.1"), .ipv4(IPv4Address("10.0.0.1")!))
        XCTAssertEqual(NWEndpoint.Host("example.com"), .name("example.com", nil))
        XCTAssertEqual(NWEndpoint.Port("443"), .https)
    }

    func testGateways_areHostPortEndpoints_andEveryLinuxReasonIsNotAvailable() throws {
        let satisfied = NWPath(path(.satisfied, via: eth0, available: [eth0], gateways: [try IPAddress("10.0.0.1"), try IPAddress("fe80::1")]))
        XCTAssertEqual(satisfied.gateways.map(\.debugDescription), ["10.0.0.1:0", "[fe80::1]:0"])
        guard case let .hostPort(.ipv4(address), port) = satisfied.gateways[0] else { return XCTFail("\(satisfied.gateways)") }
        XCTAssertEqual("\(address)", "10.0.0.1")
        XCTAssertEqual(port, .any)
        XCTAssertEqual(satisfied.unsatisfiedReason, .notAvailable)
        XCTAssertEqual(satisfied.linkQuality, .good)
        XCTAssertNil(satisfied.localEndpoint)
        XCTAssertNil(satisfied.remoteEndpoint)
        XCTAssertFalse(satisfied.isUltraConstrained)
        for reason in [NetworkPath.UnsatisfiedReason.noRoute, .unreachableRoute, .prohibitedRoute, .blackholeRoute, .noCarrier,
                       .interfaceDown, .localAddressUnavailable, .requiredInterfaceUnavailable, .nameNotResolved,
                       .noDNSServer, .namespaceUnavailable] {
            let unsatisfied = NWPath(path(.unsatisfied, reason: reason, via: nil, available: []))
            XCTAssertEqual(unsatisfied.status, .unsatisfied)
            XCTAssertEqual(unsatisfied.unsatisfiedReason, .notAvailable, "\(reason)")
            XCTAssertEqual(unsatisfied.linkQuality, .unknown)
            XCTAssertEqual(unsatisfied.networkPath.unsatisfiedReason, reason, "ours keeps the Linux reason")
        }
    }

    func testUsesInterfaceType_underAVPN_isTheTunnelAndThePhysicalLinkBeneathIt() {
        let overVPN = NWPath(path(.satisfied, via: wg0, available: [wg0, wlan0, eth0]))
        XCTAssertTrue(overVPN.usesInterfaceType(.other), "the tunnel itself")
        XCTAssertTrue(overVPN.usesInterfaceType(.wifi), "the best default route's link beneath it")
        XCTAssertFalse(overVPN.usesInterfaceType(.wiredEthernet))
        XCTAssertFalse(overVPN.networkPath.usesInterfaceType(.wifi), "ours: the route's interface only")
        let direct = NWPath(path(.satisfied, via: eth0, available: [eth0, wlan0]))
        XCTAssertTrue(direct.usesInterfaceType(.wiredEthernet))
        XCTAssertFalse(direct.usesInterfaceType(.wifi), "no tunnel: only the route's interface")
    }

    func testNWInterface_isTheSameInterfaceWhateverItsQuality() {
        var slower = eth0
        slower.linkQuality = .minimal
        XCTAssertEqual(NWInterface(eth0), NWInterface(slower))
        XCTAssertEqual(NWInterface(eth0).debugDescription, "eth0")
        XCTAssertEqual(NWInterface(wlan0).type, .wifi)
    }

    /// Code written when `pathMonitor` was a `PathMonitor` compiles and runs as it is on a monitor
    /// made by Apple's initialisers; `monitor` is the same object.
    func testPathMonitor_ofAnApplesInitialiser_readsAsBefore() {
        let monitor = NWPathMonitor()
        let pathMonitor: PathMonitor = monitor.pathMonitor
        XCTAssertNil(monitor.pathMonitor.setupError)
        XCTAssertTrue(monitor.monitor === pathMonitor)
        let wrapped = NWPathMonitor(pathMonitor)
        XCTAssertTrue(wrapped.pathMonitor === pathMonitor)
    }
}
