import Foundation
import NetworkReachability
import NetworkReachabilityTesting
import XCTest

/// The fake tells what the real monitor tells: each ready-made path of `NetworkReachabilityTesting`
/// against the general path of a real monitor in a namespace built to the same situation, field
/// by field. Names, indexes, the link's kind and addresses (gateways, a portal's URL, a probe's
/// URL) differ by nature: a fake's `eth0` is a namespace's `v0` (the DocC article "Testing with a
/// fake monitor" says so). `supportsDNS` is compared on satisfied paths only: an unsatisfied
/// path's follows the resolver's configuration, whatever the route.
final class FakeAgreementTests: XCTestCase {
    /// `.online()`: a LAN with a default route via a gateway, carrier, a name server.
    func testOnline_tellsWhatAMonitorTellsOnAWiredLAN() throws {
        try withNamespace { ns in
            try ns.addLAN(.ipv4, remoteRoute: false, linkLocal: false)
            try ns.ip("-4", "route", "add", "default", "via", AddressPlan.ipv4.gateway, "dev", "v0")
            try ns.setResolvConf("nameserver \(AddressPlan.ipv4.gateway)\n")
            assertAgree(fake: .online(), real: try ns.generalMonitor().currentPath)
        }
    }

    /// `.unplugged()`: the same LAN with its cable out (the veth's peer down: no carrier).
    func testUnplugged_tellsWhatAMonitorTellsWithTheCableOut() throws {
        try withNamespace { ns in
            try ns.addLAN(.ipv4, remoteRoute: false, linkLocal: false)
            try ns.ip("-4", "route", "add", "default", "via", AddressPlan.ipv4.gateway, "dev", "v0")
            try ns.ip("link", "set", "v0p", "down")
            try ns.waitForLink("v0", carrier: false)
            let real = try ns.generalMonitor().currentPath
            XCTAssertEqual(real.interface?.name, "v0", "the route stays: \(real)")
            assertAgree(fake: .unplugged(), real: real)
            assertAgree(fake: .offline(.noCarrier), real: real)
            assertAgree(fake: .fake(flags: [.reachable, .connectionRequired]), real: real)
        }
    }

    /// `.offline()`: no route at all (only `lo`); `.offline(reason)` for each route that refuses.
    func testOffline_tellsWhatAMonitorTellsWithoutARoute_andBehindEachRouteThatRefuses() throws {
        try withNamespace { ns in
            assertAgree(fake: .offline(), real: try ns.generalMonitor().currentPath)
            assertAgree(fake: .fake(flags: []), real: try ns.generalMonitor().currentPath)
        }
        let refusals: [(String, NetworkPath.UnsatisfiedReason)] = [
            ("unreachable", .unreachableRoute), ("prohibit", .prohibitedRoute), ("blackhole", .blackholeRoute),
        ]
        for (type, reason) in refusals {
            try withNamespace("refusing\(type)") { ns in
                try ns.ip("-4", "route", "add", type, "default")
                assertAgree(fake: .offline(reason), real: try ns.generalMonitor().currentPath, "\(type)")
            }
        }
    }

    /// `.captivePortal()` and `.online(connectivity: .full)`: a probe's answer through a real server.
    func testCaptivePortalAndFull_tellWhatAMonitorsProbeTells() throws {
        try withProbeLab(mode: "302") { lab in
            try lab.client.setResolvConf("nameserver \(ProbeLab.serverAddress)\n")
            let portal = try lab.checkedPath(probe: try ProbeLab.probe())
            XCTAssertNotNil(portal.portalURL, "\(portal)")
            assertAgree(fake: .captivePortal(), real: portal)
            assertAgree(fake: .online(connectivity: .full), real: try lab.checkedPath("204", probe: try ProbeLab.probe()))
        }
    }

    /// Every field a test of user code may look at, but names, indexes, kinds and addresses.
    private func assertAgree(fake: NetworkPath, real: NetworkPath, _ situation: String = "",
                             file: StaticString = #filePath, line: UInt = #line) {
        let context = "\(situation)\nfake: \(fake)\nreal: \(real)"
        XCTAssertEqual(fake.status, real.status, context, file: file, line: line)
        XCTAssertEqual(fake.unsatisfiedReason, real.unsatisfiedReason, context, file: file, line: line)
        XCTAssertEqual(fake.flags, real.flags, context, file: file, line: line)
        XCTAssertEqual(fake.reachabilityStatus, real.reachabilityStatus, context, file: file, line: line)
        XCTAssertEqual(fake.interface.map(InterfaceShape.init), real.interface.map(InterfaceShape.init), context, file: file, line: line)
        XCTAssertEqual(fake.availableInterfaces.map(InterfaceShape.init), real.availableInterfaces.map(InterfaceShape.init), context,
                       file: file, line: line)
        XCTAssertEqual(fake.linkQuality, real.linkQuality, context, file: file, line: line)
        XCTAssertEqual(fake.isExpensive, real.isExpensive, context, file: file, line: line)
        XCTAssertEqual(fake.isConstrained, real.isConstrained, context, file: file, line: line)
        XCTAssertEqual(fake.supportsIPv4, real.supportsIPv4, context, file: file, line: line)
        XCTAssertEqual(fake.supportsIPv6, real.supportsIPv6, context, file: file, line: line)
        if real.status == .satisfied {
            XCTAssertEqual(fake.supportsDNS, real.supportsDNS, context, file: file, line: line)
        }
        for type in NetworkInterface.InterfaceType.allCases {
            XCTAssertEqual(fake.usesInterfaceType(type), real.usesInterfaceType(type), "\(type): \(context)", file: file, line: line)
        }
        XCTAssertEqual(fake.connectivity, real.connectivity, context, file: file, line: line)
        XCTAssertEqual(fake.connectivityReason, real.connectivityReason, context, file: file, line: line)
        XCTAssertEqual(fake.portalURL == nil, real.portalURL == nil, context, file: file, line: line)
        XCTAssertEqual(fake.connectivitySource?.kind, real.connectivitySource?.kind, context, file: file, line: line)
        XCTAssertEqual(fake.captivePortalAPI, real.captivePortalAPI, context, file: file, line: line)
    }
}

/// An interface without what differs by nature (its name, index and kind).
private struct InterfaceShape: Equatable {
    let type: NetworkInterface.InterfaceType
    let linkQuality: LinkQuality
    let isExpensive: Bool
    let isConstrained: Bool
    let isUltraConstrained: Bool

    init(_ interface: NetworkInterface) {
        type = interface.type
        linkQuality = interface.linkQuality
        isExpensive = interface.isExpensive
        isConstrained = interface.isConstrained
        isUltraConstrained = interface.isUltraConstrained
    }
}
