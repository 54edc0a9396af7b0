import Foundation
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Issue 8, item 2: forged messages. semantics.md, guarantee 8: netlink messages that do not come
/// from the kernel (sender port not 0) are ignored.
///
/// A second process in the namespace (python3 with a raw AF_NETLINK socket) sends the engine's
/// event socket messages that would change what the monitors report if they were believed:
/// unicast to its port, and multicast to the groups it joined. The port is found from outside
/// the library: `/proc/net/netlink` read inside the namespace, matched by inode to this process's
/// descriptors (`Namespace.engineEventSocket()`).
///
/// What the kernel allows (checked here, Linux 6.x): sending to a port other than 0, or to a
/// group, needs CAP_NET_ADMIN in the namespace's user namespace (NETLINK_ROUTE has no
/// NL_CFG_F_NONROOT_SEND), so only a privileged process can forge; root may both unicast to the
/// engine's port and multicast to RTNLGRP_LINK and the other groups. A user-space sender can never
/// have port 0: the kernel stamps the sending socket's own port into every message, which is what
/// the engine checks.
final class ReliabilityForgedMessageTests: XCTestCase {
    /// The forger: `python3 -c FORGER ENGINE_PORT IFINDEX_OF_V0`. Sends each forged message and
    /// prints one line per send: `NAME ok` or `NAME errno N`.
    private static let forger = #"""
        import errno, socket, struct, sys
        port, ifindex = int(sys.argv[1]), int(sys.argv[2])
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
        s.bind((0, 0))
        me = s.getsockname()[0]

        def attr(kind, payload):
            length = 4 + len(payload)
            return struct.pack("HH", length, kind) + payload + b"\0" * ((4 - length % 4) % 4)

        def message(kind, body, flags=0):
            # No NLM_F_REQUEST: a notification, as the kernel sends them (and one the kernel
            # itself would ignore, should a copy reach it).
            return struct.pack("IHHII", 16 + len(body), kind, flags, 7, me) + body

        def ifinfo(index, flags, change, name, operstate):
            # ifinfomsg: family, pad, type (ARPHRD_ETHER), index, flags, change
            return (struct.pack("BxHiII", 0, 1, index, flags, change) + attr(3, name + b"\0")
                    + attr(16, bytes([operstate])) + attr(13, struct.pack("I", 0)))

        IFF_UP, IFF_RUNNING, IFF_LOWER_UP = 0x1, 0x40, 0x10000
        up = IFF_UP | IFF_RUNNING | IFF_LOWER_UP
        # RTM_NEWLINK: v0 administratively down, operstate down
        v0_down = message(16, ifinfo(ifindex, 0, 0xFFFFFFFF, b"v0", 2))
        # RTM_DELLINK: v0 is gone
        v0_gone = message(17, ifinfo(ifindex, 0, 0, b"v0", 2))
        # RTM_NEWLINK: a new link, up with carrier
        new_link = message(16, ifinfo(4242, up, 0xFFFFFFFF, b"forged0", 6))
        # RTM_NEWADDR: 10.9.0.88/24 on v0
        address = socket.inet_aton("10.9.0.88")
        new_addr = message(20, struct.pack("BBBBI", socket.AF_INET, 24, 0, 0, ifindex) + attr(2, address) + attr(1, address))
        # RTM_NEWROUTE: a default route via 10.9.0.77 on v0, main table, unicast
        new_route = message(24, struct.pack("BBBBBBBBI", socket.AF_INET, 0, 0, 0, 254, 4, 0, 1, 0)
                            + attr(15, struct.pack("I", 254)) + attr(5, socket.inet_aton("10.9.0.77")) + attr(4, struct.pack("i", ifindex)))
        # NLMSG_ERROR carrying ENOBUFS for the engine's last request, NLMSG_OVERRUN, NLMSG_DONE
        error = message(2, struct.pack("i", -errno.ENOBUFS) + struct.pack("IHHII", 16, 18, 5, 0, port))
        overrun = message(4, b"")
        done = message(3, struct.pack("i", 0), flags=2)

        def send(name, data, address):
            try:
                s.sendto(data, address)
                print(name, "ok")
            except OSError as failure:
                print(name, "errno", failure.errno)

        unicast = [("RTM_NEWLINK", v0_down), ("RTM_DELLINK", v0_gone), ("RTM_NEWLINK-new", new_link),
                   ("RTM_NEWADDR", new_addr), ("RTM_NEWROUTE", new_route), ("NLMSG_ERROR", error),
                   ("NLMSG_OVERRUN", overrun), ("NLMSG_DONE", done)]
        for name, data in unicast:
            send("unicast " + name, data, (port, 0))
        # To a group: addressed to the forger's own port, so the one unicast copy comes back to it
        # and none goes to the kernel. RTNLGRP_LINK 1, RTNLGRP_IPV4_IFADDR 5, RTNLGRP_IPV4_ROUTE 7.
        multicast = [("RTNLGRP_LINK RTM_NEWLINK", v0_down, 1), ("RTNLGRP_LINK RTM_DELLINK", v0_gone, 1),
                     ("RTNLGRP_IPV4_IFADDR RTM_NEWADDR", new_addr, 5), ("RTNLGRP_IPV4_ROUTE RTM_NEWROUTE", new_route, 7)]
        for name, data, group in multicast:
            send("multicast " + name, data, (me, 1 << (group - 1)))
        # A datagram whose header claims more than was sent: libnl stops parsing it
        send("unicast truncated", struct.pack("IHHII", 4096, 16, 0, 8, me), (port, 0))
        """#

    /// The messages the forger sends that libnl parses (all but the truncated one), each of which
    /// the engine must count.
    private static let wellFormedMessages = 12

    private struct Sent {
        var lines: [String]
        var failures: [String] { lines.filter { !$0.hasSuffix(" ok") } }
    }

    private func forge(in ns: Namespace, port: UInt32, ifindex: Int, asUser user: String? = nil) throws -> Sent {
        let python = try XCTUnwrap(TunCarrierHolder.python, "python3")
        var arguments = ["netns", "exec", ns.name]
        if let user {
            arguments += ["setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--inh-caps=-all"]
        }
        arguments += [python, "-c", Self.forger, String(port), String(ifindex)]
        let run = try runCommand(ipExecutable, arguments)
        XCTAssertEqual(run.status, 0, "forger: \(run.standardError)")
        return Sent(lines: run.standardOutput.split(separator: "\n").map(String.init))
    }

    func testForgedUnicastAndMulticastMessages_changeNothing_areCountedAndDropped() throws {
        try withReliabilityNamespace { ns in
            guard TunCarrierHolder.python != nil else {
                throw XCTSkip("no python3 to send forged netlink messages")
            }
            // Given monitors whose flags the forged messages would change if believed: v0's on-link
            // address (v0 down or gone), a pair whose local address the host does not hold (a forged
            // address), the zero address (a forged default route via another gateway)
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan, linkLocal: false)
            try ns.ip("route", "add", "default", "via", plan.gateway)
            let monitors = [try ns.monitor(plan.onLink), try ns.monitor(local: "10.9.0.88", remote: nil), try ns.monitor("0.0.0.0")]
            let expected: [ReachabilityFlags] = [[.reachable, .isDirect], [], [.reachable]]
            let queue = callbackQueue()
            let recorders = monitors.map { _ in Recorder<ReachabilityFlags>() }
            let paths = monitors.map { _ in Recorder<NetworkPath>() }
            for (index, monitor) in monitors.enumerated() {
                monitor.record(flags: recorders[index], paths: paths[index])
                monitor.setDispatchQueue(queue)
                recorders[index].wait(forLast: expected[index])
                paths[index].wait(forCount: 1)
            }
            let engine = try XCTUnwrap(monitors[0].engine)
            let events = try ns.engineEventSocket()
            let pathsBefore = monitors.map(\.currentPath)
            let before = engine.currentCounters

            // When a root process in the namespace unicasts forged RTM_NEWLINK, RTM_DELLINK,
            // RTM_NEWADDR, RTM_NEWROUTE, NLMSG_ERROR, NLMSG_OVERRUN and NLMSG_DONE to the engine's
            // port, and multicasts forged link, address and route messages to the groups it joined
            let sent = try forge(in: ns, port: events.port, ifindex: try ns.index(of: "v0"))
            XCTAssertEqual(sent.lines.count, Self.wellFormedMessages + 1, "\(sent.lines)")
            XCTAssertEqual(sent.failures, [], "the kernel refused root's sends")
            // (The sends are synchronous: the messages are queued in the engine's socket now. An
            // evaluation made now drains the socket first.)
            XCTAssertEqual(try ns.monitor(plan.onLink).flags(), [.reachable, .isDirect], "a fresh evaluation after the forgery")
            settle(monitors[0], queue)

            // Then each well-formed one was counted as dropped, nothing was re-evaluated, no callback came,
            // and every monitor reports what it did before
            let after = engine.currentCounters
            XCTAssertEqual(after.forgedMessagesDropped - before.forgedMessagesDropped, Self.wellFormedMessages,
                           "forged messages counted as dropped: \(before) -> \(after)")
            XCTAssertEqual(after.reevaluations, before.reevaluations, "forged messages woke the engine: \(before) -> \(after)")
            XCTAssertEqual(after.overruns, before.overruns, "a forged NLMSG_OVERRUN or ENOBUFS error was believed")
            XCTAssertEqual(after.resyncs, before.resyncs, "a forged NLMSG_OVERRUN or ENOBUFS error was believed")
            for (index, monitor) in monitors.enumerated() {
                XCTAssertEqual(recorders[index].all, [expected[index]], "\(monitor.targetDescription): \(names(recorders[index].all))")
                XCTAssertEqual(paths[index].count, 1, "\(monitor.targetDescription): \(paths[index].all)")
                XCTAssertEqual(monitor.currentPath, pathsBefore[index], monitor.targetDescription)
                XCTAssertEqual(try monitor.flags(), expected[index], monitor.targetDescription)
            }
            let general = try ns.generalMonitor().currentPath
            XCTAssertFalse(general.availableInterfaces.contains { $0.name == "forged0" || $0.index == 4242 }, "\(general)")

            // And the engine still believes the kernel: a real change arrives as usual
            try ns.ip("link", "set", "v0p", "down")
            recorders[0].wait(forLast: [.reachable, .connectionRequired, .isDirect])
            settle(monitors[0], queue)
            XCTAssertEqual(engine.currentCounters.forgedMessagesDropped, after.forgedMessagesDropped)
            print("reliability forged: \(Self.wellFormedMessages) forged messages sent by root "
                  + "(8 unicast, 4 multicast), \(after.forgedMessagesDropped - before.forgedMessagesDropped) counted and dropped, "
                  + "0 callbacks, 0 re-evaluations")
            monitors.forEach { $0.unschedule() }
        }
    }

    func testUnprivilegedProcess_cannotSendToTheEnginesPortOrGroups() throws {
        try withReliabilityNamespace { ns in
            guard TunCarrierHolder.python != nil else {
                throw XCTSkip("no python3 to send forged netlink messages")
            }
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan, linkLocal: false)
            let monitor = try ns.monitor(plan.onLink)
            let engine = try XCTUnwrap(monitor.engine)
            let events = try ns.engineEventSocket()
            let before = engine.currentCounters
            // When a process without capabilities (nobody) in the namespace tries the same
            let sent = try forge(in: ns, port: events.port, ifindex: try ns.index(of: "v0"), asUser: "65534")
            // Then the kernel refuses every send with EPERM
            XCTAssertEqual(sent.lines.count, Self.wellFormedMessages + 1, "\(sent.lines)")
            XCTAssertEqual(sent.failures.count, sent.lines.count, "sends the kernel let through: \(sent.lines)")
            XCTAssertTrue(sent.lines.allSatisfy { $0.hasSuffix("errno \(EPERM)") }, "\(sent.lines)")
            XCTAssertEqual(try monitor.flags(), [.reachable, .isDirect])
            XCTAssertEqual(engine.currentCounters.forgedMessagesDropped, before.forgedMessagesDropped)
        }
    }
}
