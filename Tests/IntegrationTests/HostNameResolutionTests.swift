import Foundation
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Issue 3 and semantics.md, "Targets": a host name is resolved through the system resolver inside
/// its namespace (dnsmasq there, `/etc/netns/NAME/resolv.conf` pointing at it), then every address
/// is judged as an address target would be; the best result wins (reachable beats not reachable,
/// ties go to the resolver's order), and the path carries the winner's interface and gateways.
final class HostNameResolutionTests: XCTestCase {
    func testNameOfAnOnLinkAddress_isReachableAndDirect() throws {
        // Given a name whose only record is an address on v0's subnet
        try withDNSLAN(serving: [DNSRecord("onlink.nrx.test", LAN.onLink)]) { bed in
            // Then it is judged as that address: reachable, direct, over v0
            try assertHost("onlink.nrx.test", in: bed, resolvesTo: [LAN.onLink], winner: LAN.onLink,
                           is: [.reachable, .isDirect], interface: "v0", gateways: [])
        }
    }

    func testNameOfAnAddressBehindTheGateway_isReachableViaTheGateway() throws {
        // Given a name of an address in 10.20.0.0/16, routed via 10.9.0.1
        try withDNSLAN(serving: [DNSRecord("remote.nrx.test", LAN.remote)]) { bed in
            // Then it is reachable, not direct, and the path names the gateway
            try assertHost("remote.nrx.test", in: bed, resolvesTo: [LAN.remote], winner: LAN.remote,
                           is: [.reachable], interface: "v0", gateways: [LAN.gateway])
        }
    }

    func testNameOfAnAddressUnderAnUnreachableRoute_hasNoFlags_unreachableRoute() throws {
        // Given a name of an address that `unreachable 10.30.0.0/16` covers
        try withDNSLAN(serving: [DNSRecord("refused.nrx.test", LAN.refused)]) { bed in
            // Then it resolves, but has no flags; the reason is the route, not the name
            try assertHost("refused.nrx.test", in: bed, resolvesTo: [LAN.refused], winner: LAN.refused,
                           is: [], reason: .unreachableRoute, supportsDNS: false)  // no interface carries it
        }
    }

    func testIPv6OnlyName_isJudgedByItsAAAARecord() throws {
        // Given a name with only an AAAA record, on v0's IPv6 subnet
        try withDNSLAN(serving: [DNSRecord("six.nrx.test", LAN.onLink6)]) { bed in
            // Then it is reachable and direct over v0, by IPv6 only
            let monitor = try assertHost("six.nrx.test", in: bed, resolvesTo: [LAN.onLink6], winner: LAN.onLink6,
                                         is: [.reachable, .isDirect], interface: "v0", gateways: [])
            let path = monitor.currentPath
            XCTAssertTrue(path.supportsIPv6, "the AAAA record's family has a usable route: \(path)")
            XCTAssertFalse(path.supportsIPv4, "no A record, so no IPv4 route for this target: \(path)")
        }
    }

    func testSeveralAddresses_onlySomeReachable_theBestWins_inTheResolversOrder() throws {
        // Given a name with three records: an on-link address (reachable), one under an
        // `unreachable` route (no flags) and one on v1, which has no carrier (connection required)
        try withDNSLAN(requiring: [.dnsmasq, .python],
                       serving: [DNSRecord("multi.nrx.test", LAN.onLink, LAN.refused, LAN.disconnected6)],
                       given: { try $0.addDisconnectedLink() }) { bed in
            let order = try bed.resolverOrder(of: "multi.nrx.test")
            XCTAssertEqual(Set(order), [LAN.onLink, LAN.refused, LAN.disconnected6], "test setup: what getaddrinfo returns")
            // (glibc's RFC 6724 sort puts the AAAA record first and the unusable address last, so
            // the best address is not the resolver's first: taking the first would fail here)
            XCTAssertNotEqual(order.first, LAN.onLink, "test setup: the best address must not come first: \(order)")
            let verdicts = try order.map { try bed.namespace.kernelVerdict(.destination($0)) }
            let winner = try XCTUnwrap(expectedWinner(of: verdicts))
            XCTAssertEqual(order[winner], LAN.onLink, "test setup: the kernel's verdicts: \(verdicts.map(\.evidence))")
            // Then the reachable one wins, and the addresses keep the resolver's order
            let monitor = try assertHost("multi.nrx.test", in: bed, resolvesTo: order, winner: LAN.onLink,
                                         is: [.reachable, .isDirect], interface: "v0", gateways: [])
            let path = monitor.currentPath
            XCTAssertTrue(path.supportsIPv4, "the on-link A record is usable: \(path)")
            XCTAssertFalse(path.supportsIPv6, "the only AAAA record needs a connection: \(path)")
        }
    }

    func testSeveralReachableAddresses_theResolversFirstWins() throws {
        // Given a name with two reachable records: an on-link IPv4 address and an IPv6 one
        // behind the gateway
        try withDNSLAN(requiring: [.dnsmasq, .python], serving: [DNSRecord("tie.nrx.test", LAN.onLink, LAN.remote6)]) { bed in
            let order = try bed.resolverOrder(of: "tie.nrx.test")
            XCTAssertEqual(Set(order), [LAN.onLink, LAN.remote6], "test setup: what getaddrinfo returns")
            let verdicts = try order.map { try bed.namespace.kernelVerdict(.destination($0)) }
            XCTAssertEqual(verdicts.map(\.rank), [2, 2], "test setup: both reachable: \(verdicts.map(\.evidence))")
            XCTAssertNotEqual(verdicts[0].flags, verdicts[1].flags, "test setup: the winner must show in the flags")
            // Then the tie goes to the resolver's first (glibc puts the IPv6 record first; its
            // route's metric, 1024, is higher than the IPv4 connected route's, 0: metrics do not count)
            let first = order[0]
            let expected: (flags: ReachabilityFlags, gateways: [String]) =
                first == LAN.remote6 ? ([.reachable], [LAN.gateway6]) : ([.reachable, .isDirect], [])
            try assertHost("tie.nrx.test", in: bed, resolvesTo: order, winner: first, is: expected.flags,
                           interface: "v0", gateways: expected.gateways)
        }
    }

    func testConcurrentMonitorsOfOneName_shareOneResolution() throws {
        // Given the namespace's engine, and its count of resolutions
        try withDNSLAN(serving: [DNSRecord("shared.nrx.test", LAN.onLink)]) { bed in
            let anchor = try bed.namespace.monitor(LAN.onLink)
            let engine = try XCTUnwrap(anchor.engine)
            let before = engine.currentCounters.resolutions
            // When three monitors of one name exist at once
            let monitors = try (0..<3).map { _ in try bed.monitor(host: "shared.nrx.test") }
            for monitor in monitors {
                XCTAssertTrue(monitor.engine === engine, "test setup: one engine per namespace")
                XCTAssertEqual(monitor.currentPath.resolvedAddresses.map(\.description), [LAN.onLink])
            }
            // Then the name was resolved once for all of them
            XCTAssertEqual(engine.currentCounters.resolutions - before, 1, "resolutions for three monitors of one name")
        }
    }
}

/// Makes a monitor of `host` and schedules it at once (before its first resolution can have
/// finished), then checks what issue 3 and semantics.md promise:
/// - the first callback carries the resolved state, not a "not yet resolved" one;
/// - `resolvedAddresses` are `addresses`, in that order, and not stale;
/// - `flags()`, `currentPath` and the kernel's own answer for `winner` agree on `expected`
///   (`assertTarget`), with the winner's interface and gateways.
///
/// - Parameters:
///   - winner: the address whose verdict the name's must be.
///   - supportsDNS: whether a server of the namespace's resolv.conf serves the path (none without an interface).
/// - Returns: the monitor, still scheduled.
@discardableResult
func assertHost(
    _ host: String, in bed: DNSTestBed, options: HostResolutionOptions = .default,
    resolvesTo addresses: [String], winner: String, is expected: ReachabilityFlags,
    reason: NetworkPath.UnsatisfiedReason? = nil, interface: String? = nil, gateways: [String]? = nil,
    supportsDNS: Bool = true, file: StaticString = #filePath, line: UInt = #line
) throws -> PathMonitor {
    let monitor = try bed.monitor(host: host, options: options)
    let flags = Recorder<ReachabilityFlags>()
    let paths = Recorder<NetworkPath>()
    monitor.record(flags: flags, paths: paths)
    monitor.setDispatchQueue(callbackQueue("\(host)"))
    guard paths.wait(forCount: 1, file: file, line: line), flags.wait(forCount: 1, file: file, line: line) else {
        return monitor
    }
    let first = paths.all[0]
    XCTAssertEqual(flags.all[0], expected, "the first callback of \(host): \(names(flags.all[0]))", file: file, line: line)
    XCTAssertEqual(first.resolvedAddresses.map(\.description), addresses, "the first path of \(host): \(first)", file: file, line: line)

    try assertTarget(monitor, in: bed.namespace, kernel: .destination(winner), is: expected, reason: reason,
                     interface: interface, gateways: gateways, file: file, line: line)
    let path = monitor.currentPath
    XCTAssertEqual(path.resolvedAddresses.map(\.description), addresses, "resolvedAddresses of \(host), in the resolver's order: \(path)",
                   file: file, line: line)
    XCTAssertFalse(path.resolvedAddressesAreStale, "a fresh answer is not stale: \(path)", file: file, line: line)
    XCTAssertEqual(path.supportsDNS, supportsDNS, "whether resolv.conf names a server: \(path)", file: file, line: line)
    XCTAssertEqual(monitor.targetDescription, host, file: file, line: line)
    return monitor
}
