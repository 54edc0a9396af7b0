import Foundation
@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// semantics.md, guarantees 4, 7 and 8: bursts, overruns (ENOBUFS) and messages not from the kernel.
///
/// To make a burst deterministic the test holds the engine's queue while `ip -batch` runs, so
/// every event of the batch is queued in the engine's socket (or dropped by the kernel) before
/// the engine reads any of them. Nothing is mocked: the kernel sends, queues and drops.
final class EngineRobustnessTests: XCTestCase {
    /// Writes `lines` to a temporary file for `ip -batch` and returns its path; the caller removes it.
    private func batchFile(_ lines: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nrx-it-\(getpid())-\(UUID().uuidString).batch").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testBurstOfKernelEvents_yieldsOneEvaluation() throws {
        try withNamespace { ns in
            // Given a scheduled monitor, on links without IPv6 link-local addresses (whose DAD would
            // end with an address event at a time of its own)
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan, linkLocal: false)
            let monitor = try ns.monitor(plan.onLink)
            let flags = Recorder<ReachabilityFlags>()
            monitor.record(flags: flags)
            let queue = callbackQueue()
            monitor.setDispatchQueue(queue)
            flags.wait(forCount: 1)
            let engine = monitor.engine!
            let before = engine.currentCounters
            // When 50 route changes over its destination reach the socket before the engine reads
            // any (in a table no rule consults: its path stays as it was)
            let batch = try batchFile(routesOver(plan.onLink, count: 50).map { "route add \($0) via \(plan.gateway) dev v0" })
            defer { try? FileManager.default.removeItem(atPath: batch) }
            _ = try XCTUnwrap(engine.onLoop { _ in Result { try ns.ip("-batch", batch) } }).get()
            // A pass evaluates the monitors the burst can move: this one.
            func passes(_ counters: EngineCounters) -> Int { counters.reevaluations }
            try waitUntil("the engine handled the burst") { passes(engine.currentCounters) > passes(before) }
            XCTAssertEqual(try ns.monitor(plan.onLink).flags(), [.reachable, .isDirect], "a fresh evaluation drains anything left")
            settle(monitor, queue)
            // Then the engine evaluated once, and the unchanged flags were not delivered again
            let after = engine.currentCounters
            XCTAssertEqual(passes(after) - passes(before), 1, "evaluations for one burst: \(before) -> \(after)")
            XCTAssertEqual(after.overruns, before.overruns, "50 events must not overrun the socket")
            XCTAssertEqual(flags.all, [[.reachable, .isDirect]], names(flags.all))
            monitor.unschedule()
        }
    }

    func testOverrun_ENOBUFS_losesNothing_addressAddedDuringFloodIsSeen() throws {
        try withNamespace { ns in
            // Given a scheduled pair whose local address the host does not hold yet
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let local = "10.9.0.77"
            let monitor = try ns.monitor(local: local, remote: plan.remote)
            let paths = Recorder<NetworkPath>()
            monitor.record(paths: paths)
            let queue = callbackQueue()
            monitor.start(queue: queue)
            paths.wait(until: "the first path says the local address is unavailable") {
                $0.last?.unsatisfiedReason == .localAddressUnavailable
            }
            let engine = monitor.engine!
            let before = engine.currentCounters
            // When a flood of route events overruns the engine's socket, and the address is added
            // at its end (its event is dropped by the kernel with the rest that did not fit). The
            // routes are over a default-route probe, which the engine always watches (the pair's
            // remote is asked about only once its local address is held).
            let probe = DefaultRouteProbes.ipv4[0].description
            var lines = routesOver(probe, count: 40_000).map { "route add \($0) via \(plan.gateway) dev v0" }
            lines.append("addr add \(local)/24 dev v0")
            let batch = try batchFile(lines)
            defer { try? FileManager.default.removeItem(atPath: batch) }
            _ = try XCTUnwrap(engine.onLoop { _ in Result { try ns.ip("-batch", batch) } }).get()
            // Then the engine notices the overrun, rereads the kernel's state, and reports the address
            paths.wait(until: "the pair is reachable") { $0.last?.status == .satisfied }
            settle(monitor, queue)
            let after = engine.currentCounters
            XCTAssertGreaterThan(after.overruns, before.overruns,
                                 "test setup: the flood did not overrun the engine's receive buffer; use more routes")
            XCTAssertGreaterThan(after.resyncs, before.resyncs, "an overrun must be followed by a resync")
            XCTAssertEqual(paths.all.last?.flags, [.reachable], "\(paths.all.last.map { "\($0)" } ?? "no path")")
            XCTAssertEqual(try ns.kernelVerdict(.pair(local: local, remote: plan.remote)).flags, [.reachable])
            monitor.cancel()
        }
    }

    /// Sends a forged RTM_NEWADDR (10.9.0.88/24 on the given interface index) from a user-space
    /// socket to every NETLINK_ROUTE socket of the namespace that joined a multicast group; prints their number.
    private static let forger = """
        import socket, struct, sys
        ifindex = int(sys.argv[1])
        ports = []
        with open("/proc/net/netlink") as table:
            next(table)
            for line in table:
                fields = line.split()
                if int(fields[1]) == 0 and int(fields[3], 16) != 0:
                    ports.append(int(fields[2]))
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
        s.bind((0, 0))
        address = socket.inet_aton("10.9.0.88")
        attributes = struct.pack("HH4s", 8, 2, address) + struct.pack("HH4s", 8, 1, address)
        body = struct.pack("BBBBI", socket.AF_INET, 24, 0, 0, ifindex) + attributes
        message = struct.pack("IHHII", 16 + len(body), 20, 0, 1, s.getsockname()[0]) + body
        for port in ports:
            s.sendto(message, (port, 0))
        print(len(ports))
        """

    func testNetlinkMessageNotFromKernel_isIgnored() throws {
        try withNamespace { ns in
            guard let python = TunCarrierHolder.python else {
                throw XCTSkip("no python3 to send a forged netlink message")
            }
            // Given a scheduled monitor of a local address alone (10.9.0.88), which the host does not
            // hold: only the engine's address cache decides it, no route lookup
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let monitor = try ns.monitor(local: "10.9.0.88", remote: nil)
            let flags = Recorder<ReachabilityFlags>()
            monitor.record(flags: flags)
            let queue = callbackQueue()
            monitor.setDispatchQueue(queue)
            flags.wait(forCount: 1)
            let before = monitor.engine!.currentCounters
            // When a user-space process sends the engine a forged "10.9.0.88 was added to v0"
            let sent = try runCommand(ipExecutable, ["netns", "exec", ns.name, python, "-c", Self.forger, String(try ns.index(of: "v0"))])
            XCTAssertEqual(sent.status, 0, "forger: \(sent.standardError)")
            XCTAssertEqual(sent.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines), "1", "the engine's event socket is the one listening")
            // And then a real change follows, so the engine has read the forged message once it handled this
            let (witness, witnessFlags) = try ns.witness(plan.onLink, on: queue)
            try ns.ip("link", "set", "v0p", "down")
            witnessFlags.wait(forLast: [.reachable, .connectionRequired, .isDirect])
            settle(monitor, queue)
            // Then the forged message was dropped: the address is still not the host's
            XCTAssertGreaterThan(monitor.engine!.currentCounters.forgedMessagesDropped, before.forgedMessagesDropped)
            XCTAssertEqual(flags.all, [[]], names(flags.all))
            XCTAssertEqual(try monitor.flags(), [])
            XCTAssertEqual(monitor.currentPath.unsatisfiedReason, .localAddressUnavailable)
            witness.unschedule()
            monitor.unschedule()
        }
    }
}
