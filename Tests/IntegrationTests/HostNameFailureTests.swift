import Foundation
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Issue 3, "Failure semantics", "Bad input" and "Done when": names that do not resolve say why,
/// `flags()` never waits past the first-resolution timeout, a name server that never answers
/// delays only its own name (never the engine's queue), and bad names are refused with the rule
/// they break while IP literals skip the resolver.
final class HostNameFailureTests: XCTestCase {
    func testNXDOMAIN_noFlags_nameNotResolved_withoutWaiting() throws {
        // Given a server that knows one name in nrx.test (NXDOMAIN for every other name in it)
        try withDNSLAN(serving: [DNSRecord("known.nrx.test", LAN.onLink)]) { bed in
            XCTAssertEqual(try bed.monitor(host: "known.nrx.test").currentPath.resolvedAddresses.map(\.description), [LAN.onLink],
                           "control: the namespace's server is the one asked, and it answers")
            let start = Date()
            let monitor = try bed.monitor(host: "missing.nrx.test")
            let flags = Recorder<ReachabilityFlags>()
            monitor.record(flags: flags)
            monitor.setDispatchQueue(callbackQueue())
            // Then the first callback comes, with no flags (a not-reachable first state is still delivered)
            flags.wait(forCount: 1)
            XCTAssertEqual(flags.all, [[]])
            // And flags() answers at once: NXDOMAIN is a definite answer, nothing to wait for
            XCTAssertEqual(try monitor.flags(), [])
            XCTAssertLessThan(Date().timeIntervalSince(start), 2.5, "flags() waited for an answer it had (timeout 5 s)")
            let path = monitor.currentPath
            XCTAssertEqual(path.status, .unsatisfied, "\(path)")
            XCTAssertEqual(path.unsatisfiedReason, .nameNotResolved, "\(path)")
            XCTAssertEqual(path.resolvedAddresses.map(\.description), [], "\(path)")
            XCTAssertFalse(path.resolvedAddressesAreStale, "\(path)")
            // resolv.conf names a server, but a path with no interface has none to ask
            XCTAssertFalse(path.supportsDNS, "\(path)")
        }
    }

    func testNoNameServerConfigured_noDNSServer_untilOneIs() throws {
        try withDNSLAN { bed in
            // Given a resolv.conf without any nameserver line (glibc then tries 127.0.0.1, where
            // nobody listens) and a server that would know the name
            try bed.replaceByRename("resolv.conf", with: "# no name server here\noptions timeout:1\n")
            try bed.startDNSServer([DNSRecord("known.nrx.test", LAN.onLink)])
            let monitor = try bed.monitor(host: "known.nrx.test")
            let paths = Recorder<NetworkPath>()
            monitor.record(paths: paths)
            monitor.setDispatchQueue(callbackQueue())
            // Then the name is not resolved, and the reason is the missing server
            XCTAssertEqual(try monitor.flags(), [])
            var path = monitor.currentPath
            XCTAssertEqual(path.status, .unsatisfied, "\(path)")
            XCTAssertEqual(path.unsatisfiedReason, .noDNSServer, "\(path)")
            XCTAssertFalse(path.supportsDNS, "\(path)")
            XCTAssertEqual(path.resolvedAddresses.map(\.description), [], "\(path)")

            // When a server is configured
            try bed.useTestServer()
            // Then the name resolves
            paths.wait(until: "the name resolves") { $0.last?.resolvedAddresses.map(\.description) == [LAN.onLink] }
            path = monitor.currentPath
            XCTAssertEqual(path.flags, [.reachable, .isDirect], "\(path)")
            XCTAssertTrue(path.supportsDNS, "\(path)")
        }
    }

    func testFlagsOfANeverResolvedName_returnWithinTheFirstResolutionTimeout_whenTheServerNeverAnswers() throws {
        try withDNSLAN(requiring: [.python]) { bed in
            // Given a name server that takes every query and never answers; the resolver would
            // wait 20 s for it
            try bed.useTestServer(options: "timeout:20 attempts:1")
            let server = try bed.startSilentServer()

            for (name, timeout) in [("silent-one.nrx.test", 1.0), ("silent-default.nrx.test", 5.0)] {
                // When flags() is asked of a new monitor (first-resolution timeout 1 s, then the default 5 s)
                let options = timeout == 5 ? HostResolutionOptions.default : HostResolutionOptions(firstResolutionTimeout: .seconds(1))
                let start = Date()
                let monitor = try bed.monitor(host: name, options: options)
                let flags = try monitor.flags()
                let elapsed = Date().timeIntervalSince(start)
                // Then it waited for the resolution, but not past the timeout
                XCTAssertGreaterThanOrEqual(elapsed, timeout - 0.1, "\(name): flags() must wait for the first resolution (timeout \(timeout) s)")
                XCTAssertLessThan(elapsed, timeout + 2, "\(name): flags() waited past the first-resolution timeout of \(timeout) s")
                XCTAssertEqual(flags, [], name)
                let path = monitor.currentPath
                XCTAssertEqual(path.unsatisfiedReason, .nameNotResolved, "\(name): \(path)")
                XCTAssertEqual(path.resolvedAddresses.map(\.description), [], "\(name): \(path)")
                XCTAssertLessThan(Date().timeIntervalSince(start), timeout + 2.5, "\(name): currentPath waited again")
            }
            // And the resolver did ask the server (which never answered)
            XCTAssertGreaterThanOrEqual(server.lines.all.filter { $0 == "query" }.count, 2, "queries seen: \(server.lines.all)")
        }
    }

    func testNoResolutionRunsOnTheEnginesQueue_anotherTargetsEventsArriveOnTime() throws {
        try withDNSLAN(requiring: [.python]) { bed in
            // Given a name whose server never answers (the resolver waits 20 s), being resolved
            try bed.useTestServer(options: "timeout:20 attempts:1")
            let server = try bed.startSilentServer()
            let queue = callbackQueue()
            let hostCreated = Date()
            let host = try bed.monitor(host: "silent.nrx.test")
            host.record(paths: Recorder<NetworkPath>())
            host.setDispatchQueue(queue)
            XCTAssertLessThan(Date().timeIntervalSince(hostCreated), 1, "making and scheduling the monitor waited for the resolver")
            server.lines.wait(until: "the resolver's query reached the server") { $0.contains("query") }

            // When an address of the same namespace is monitored (so by the same engine)
            let created = Date()
            let address = try bed.namespace.monitor(LAN.onLink)
            XCTAssertTrue(address.engine === host.engine, "test setup: one engine, one queue for both targets")
            let events = Recorder<TimedFlags>()
            address.setCallback { events.append(TimedFlags(flags: $0, at: Date())) }
            address.setDispatchQueue(queue)
            // Then its first callback comes at once
            events.wait(forCount: 1)
            let first = try XCTUnwrap(events.all.first)
            XCTAssertEqual(first.flags, [.reachable, .isDirect])
            XCTAssertLessThan(first.at.timeIntervalSince(created), 1, "a new monitor waited behind the name's resolution")

            // When v0 loses its carrier (its veth peer goes down)
            try bed.namespace.ip("link", "set", "v0p", "down")
            let changed = Date()
            // Then the address's callback comes within 1 s
            events.wait(until: "the carrier loss reaches the address's callback") {
                $0.last?.flags == [.reachable, .connectionRequired, .isDirect]
            }
            let delivered = try XCTUnwrap(events.all.last)
            XCTAssertLessThan(delivered.at.timeIntervalSince(changed), 1, "the carrier event was held up")
            // While the name's lookup was still blocked in the resolver (sent after the monitor was
            // made; 20 s timeout; no answer ever)
            XCTAssertLessThan(delivered.at.timeIntervalSince(hostCreated), 20, "test setup: the lookup ended before the event")
            XCTAssertFalse(server.lines.all.contains { $0 != "ready" && $0 != "query" }, "the server never answers")
        }
    }

    func testInvalidHostNames_areRefused_withTheBrokenRule() throws {
        let longLabel = String(repeating: "a", count: 64)
        let label63 = String(repeating: "a", count: 63)
        let name254 = [label63, label63, label63, String(repeating: "b", count: 62)].joined(separator: ".")
        XCTAssertEqual(name254.utf8.count, 254, "test setup")
        // (the name, something its error must say: the rule that was broken)
        let cases: [(name: String, rule: String)] = [
            ("", "empty"),
            (name254, "253"),
            ("\(longLabel).nrx.test", "63"),
            ("bad name.nrx.test", "' '"),
            ("bad!.nrx.test", "'!'"),
            ("b\u{FC}cher.nrx.test", "'\u{FC}'"),
            ("bad/name.nrx.test", "'/'"),
            ("a\u{0}b.nrx.test", "NUL"),
            ("printer.nrx.test%v0", "%"),
            ("a..nrx.test", "empty label"),
            ("-a.nrx.test", "'-'"),
        ]
        try withDNSLAN(requiring: []) { bed in
            for (name, rule) in cases {
                do throws(ReachabilityError) {
                    let monitor = try bed.monitor(host: name)
                    XCTFail("PathMonitor(host: \(name.debugDescription)) was accepted: \(monitor.targetDescription)")
                } catch {
                    guard case .invalidHostName(let reported, let reason) = error else {
                        XCTFail("PathMonitor(host: \(name.debugDescription)): \(error), not invalidHostName")
                        continue
                    }
                    XCTAssertEqual(reported, name, "the error names the input")
                    XCTAssertTrue(reason.contains(rule), "the reason for \(name.debugDescription) must name the rule (\(rule)): \(reason)")
                    XCTAssertFalse(error.description.contains("\n"), "one line: \(error.description)")
                }
            }
        }
    }

    func testIPLiteralsGivenAsHostNames_areMonitoredAsAddresses_withoutTheResolver() throws {
        // Given a namespace with a server, and its engine's count of resolutions
        try withDNSLAN(serving: []) { bed in
            let anchor = try bed.namespace.monitor(LAN.onLink)
            let engine = try XCTUnwrap(anchor.engine)
            let before = engine.currentCounters.resolutions
            // When IP literals are given as host names
            for literal in [LAN.onLink, LAN.remote, LAN.refused, LAN.onLink6, LAN.remote6, "fe80::1%v0"] {
                let monitor = try bed.monitor(host: literal)
                let asAddress = try bed.namespace.monitor(literal)
                // Then each is the address target, with no resolved addresses
                XCTAssertEqual(monitor.targetDescription, asAddress.targetDescription, literal)
                XCTAssertEqual(try monitor.flags(), try asAddress.flags(), literal)
                let path = monitor.currentPath
                XCTAssertEqual(path.resolvedAddresses.map(\.description), [], "\(literal): \(path)")
                XCTAssertEqual(path.unsatisfiedReason, asAddress.currentPath.unsatisfiedReason, "\(literal): \(path)")
            }
            // And no resolver round trip was made
            XCTAssertEqual(engine.currentCounters.resolutions, before, "resolutions for IP literals")
        }
    }
}

/// Flags and when the callback got them.
struct TimedFlags: Sendable {
    var flags: ReachabilityFlags
    var at: Date
}
