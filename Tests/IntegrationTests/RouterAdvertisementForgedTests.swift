@testable import NetworkReachabilityCore
import XCTest
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// The neighbour and ND user-option groups the engine joins for routes that move without a route
/// message keep semantics.md's guarantee 8: a message not sent by the kernel is dropped unread.
final class RouterAdvertisementForgedTests: XCTestCase {
    /// `python3 -c FORGER ENGINE_PORT IFINDEX ROUTER`: unicasts a forged RTM_NEWNEIGH (the router
    /// FAILED) and a forged RTM_NEWNDUSEROPT (an RDNSS option) to the engine's port.
    private static let forger = #"""
        import socket, struct, sys
        port, ifindex, router = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
        s.bind((0, 0))
        me = s.getsockname()[0]
        def message(kind, body):
            return struct.pack("IHHII", 16 + len(body), kind, 0, 9, me) + body
        # ndmsg: AF_INET6, ifindex, NUD_FAILED, NTF_ROUTER, then NDA_DST
        neighbour = struct.pack("BxxxiHBB", 10, ifindex, 0x20, 0x80, 1) + struct.pack("HH", 20, 1) + socket.inet_pton(socket.AF_INET6, router)
        # nduseroptmsg: AF_INET6, options length, ifindex, ICMPv6 type 134, then an RDNSS option
        option = struct.pack("!BBHI", 25, 3, 0, 600) + socket.inet_pton(socket.AF_INET6, "2001:db8::53")
        useroption = struct.pack("BxHiBBxxI", 10, len(option), ifindex, 134, 0, 0) + option
        for data in (message(28, neighbour), message(68, useroption)):
            s.sendto(data, (port, 0))
        """#

    func testForgedNeighbourAndUserOptionMessages_areDropped() throws {
        try withWatchedRouterLAN { lan, watched in
            try lan.advertise(lifetime: 300)
            try watched.waitUntilReachable(via: lan.gateways[0])
            let engine = try XCTUnwrap(watched.monitors[0].engine)
            let events = try lan.client.engineEventSocket()
            XCTAssertNotEqual(events.groups & (1 << 2), 0, "RTNLGRP_NEIGH joined while an answer leaves by a router")
            let before = engine.currentCounters

            let run = try runCommand(ipExecutable, ["netns", "exec", lan.client.name, pythonExecutable!, "-c", Self.forger,
                                                    String(events.port), String(try lan.client.link("c0").index), lan.gateways[0]])
            XCTAssertEqual(run.status, 0, "forger: \(run.standardError)")
            try waitUntil("the engine read both forged messages") {
                engine.currentCounters.forgedMessagesDropped >= before.forgedMessagesDropped + 2
            }
            let after = engine.currentCounters
            XCTAssertEqual(after.silentStateLooks, before.silentStateLooks, "a forged neighbour message asked again")
            XCTAssertEqual(after.reevaluations, before.reevaluations)
            XCTAssertEqual(watched.monitors[0].currentPath.gateways.first?.addressString, lan.gateways[0])
        }
    }
}
