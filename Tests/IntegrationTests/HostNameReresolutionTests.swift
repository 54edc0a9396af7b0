import Foundation
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Issue 3, "Re-resolution" and "Failure semantics": the answer follows the records, the resolver's
/// configuration and the network without restarting the monitor; a server that stops answering
/// leaves the last good addresses in place, marked stale, until a definite answer comes.
final class HostNameReresolutionTests: XCTestCase {
    /// Re-resolution every 300 ms, so records that change are seen well within the tests' timeout.
    private let quickly = HostResolutionOptions(reresolveInterval: .milliseconds(300))

    func testChangedRecords_arePickedUpByThePeriodicReresolution() throws {
        try withDNSLAN { bed in
            // Given a watched name that resolves to an on-link address, re-resolved every 300 ms
            try bed.useTestServer()
            var server = try bed.startDNSServer([DNSRecord("moving.nrx.test", LAN.onLink)])
            let monitor = try bed.monitor(host: "moving.nrx.test", options: quickly)
            let (flags, paths, queue) = watch(monitor)
            paths.wait(until: "the name resolves to \(LAN.onLink)") { $0.last?.resolvedAddresses.map(\.description) == [LAN.onLink] }

            // When the server restarts with another record (nothing else changes: no link,
            // address, route or resolver file)
            server.stop()
            server = try bed.startDNSServer([DNSRecord("moving.nrx.test", LAN.remote)])
            // Then the monitor follows: the new address, behind the gateway
            paths.wait(until: "the new record is seen") {
                $0.last.map { $0.resolvedAddresses.map(\.description) == [LAN.remote] && !$0.resolvedAddressesAreStale } ?? false
            }
            var path = monitor.currentPath
            XCTAssertEqual(path.flags, [.reachable], "\(path)")
            XCTAssertEqual(path.gateways.map(\.addressString), [LAN.gateway], "the winner's gateway: \(path)")

            // When the server restarts without the name: NXDOMAIN is a definite answer
            server.stop()
            server = try bed.startDNSServer([])
            // Then the addresses go, and so do the flags
            paths.wait(until: "the name is gone") {
                $0.last.map { $0.resolvedAddresses.isEmpty && $0.unsatisfiedReason == .nameNotResolved } ?? false
            }
            path = monitor.currentPath
            XCTAssertEqual(path.flags, [], "\(path)")
            XCTAssertFalse(path.resolvedAddressesAreStale, "NXDOMAIN is no temporary failure: \(path)")
            settle(monitor, queue)
            // And the callbacks went straight from one answer to the next: while the server
            // restarted, a failed lookup kept the last addresses
            XCTAssertEqual(flags.all, [[.reachable, .isDirect], [.reachable], []], names(flags.all))
        }
    }

    func testResolvConfAtADeadServer_rewrittenInPlace_becomesReachable() throws {
        try deadServerThenLive(replace: false)
    }

    func testResolvConfAtADeadServer_replacedByRename_becomesReachable() throws {
        try deadServerThenLive(replace: true)
    }

    /// resolv.conf first names a server where nothing listens (127.0.0.1 of the namespace), then
    /// the live one; the monitor re-resolves only every 60 s (the default) and the network does not
    /// change, so only the watch on resolv.conf can bring the answer.
    private func deadServerThenLive(replace: Bool) throws {
        try withDNSLAN { bed in
            // Given a live server, but resolv.conf naming a dead one
            let deadConf = DNSTestBed.resolvConf(nameServer: "127.0.0.1")
            let liveConf = DNSTestBed.resolvConf(nameServer: DNSTestBed.serverAddress)
            let path = "\(bed.configurationDirectory)/resolv.conf"
            try bed.replaceByRename("resolv.conf", with: deadConf)
            try bed.startDNSServer([DNSRecord("live.nrx.test", LAN.onLink)])
            let monitor = try bed.monitor(host: "live.nrx.test")
            let (_, paths, _) = watch(monitor)
            // Then the name does not resolve at first
            paths.wait(forCount: 1)
            let first = paths.all[0]
            XCTAssertEqual(first.flags, [], "\(first)")
            XCTAssertEqual(first.unsatisfiedReason, .nameNotResolved, "\(first)")
            XCTAssertEqual(first.resolvedAddresses.map(\.description), [], "\(first)")

            // When resolv.conf is rewritten to name the live server
            let before = try bed.inode(of: path)
            if replace {
                let after = try bed.replaceByRename("resolv.conf", with: liveConf)
                XCTAssertNotEqual(after, before, "test setup: a rename makes a new inode")
            } else {
                let after = try bed.rewriteInPlace("resolv.conf", with: liveConf)
                XCTAssertEqual(after, before, "test setup: written in place, through the same inode")
            }
            // Then the same monitor resolves the name and finds it reachable
            paths.wait(until: "the name resolves through the live server") {
                $0.last.map { $0.resolvedAddresses.map(\.description) == [LAN.onLink] && $0.flags == [.reachable, .isDirect] } ?? false
            }
            XCTAssertEqual(try monitor.flags(), [.reachable, .isDirect])
        }
    }

    func testSymlinkedResolvConf_whoseTargetIsReplacedByRename_isFollowed() throws {
        try withDNSLAN { bed in
            // Given /etc/netns/NAME/resolv.conf as a symlink into a directory that a resolver
            // daemon rewrites by rename (here /etc/netns/NAME/run/), naming a dead server
            try bed.startDNSServer([DNSRecord("live.nrx.test", LAN.onLink)])
            let run = "\(bed.configurationDirectory)/run"
            try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
            try bed.replaceByRename("run/resolv.conf", with: DNSTestBed.resolvConf(nameServer: "127.0.0.1"))
            try FileManager.default.createSymbolicLink(atPath: "\(bed.configurationDirectory)/resolv.conf",
                                                       withDestinationPath: "\(run)/resolv.conf")
            let monitor = try bed.monitor(host: "live.nrx.test")
            let (_, paths, _) = watch(monitor)
            paths.wait(forCount: 1)
            XCTAssertEqual(paths.all.first?.unsatisfiedReason, .nameNotResolved, "the dead server first: \(paths.all)")

            // When the daemon replaces the target by rename, naming the live server
            try bed.replaceByRename("run/resolv.conf", with: DNSTestBed.resolvConf(nameServer: DNSTestBed.serverAddress))
            // Then the monitor follows
            paths.wait(until: "the name resolves through the live server") { $0.last?.resolvedAddresses.map(\.description) == [LAN.onLink] }
            XCTAssertEqual(try monitor.flags(), [.reachable, .isDirect])
        }
    }

    func testResolvConfCreatedAfterTheMonitorStarted_isFollowed() throws {
        try resolvConfCreatedAfterTheMonitorStarted(withEtcNetns: true)
    }

    func testResolvConfCreatedAfterTheMonitorStarted_whenEvenEtcNetnsIsMissing_isFollowed() throws {
        try resolvConfCreatedAfterTheMonitorStarted(withEtcNetns: false)
    }

    /// No /etc/netns/NAME when the monitor starts (so /etc/resolv.conf applies: inside the
    /// namespace, which has no default route, its server is unreachable), and, as asked, no
    /// /etc/netns either; then /etc/netns/NAME/resolv.conf is made.
    private func resolvConfCreatedAfterTheMonitorStarted(withEtcNetns: Bool) throws {
        try withDNSLAN { bed in
            try bed.startDNSServer([DNSRecord("live.nrx.test", LAN.onLink)])
            XCTAssertFalse(FileManager.default.fileExists(atPath: bed.configurationDirectory), "test setup")
            if withEtcNetns {
                try bed.makeNetnsDirectory()
            } else if FileManager.default.fileExists(atPath: "/etc/netns") && rmdir("/etc/netns") != 0 {
                throw XCTSkip("/etc/netns holds other namespaces' files, so its absence cannot be tested now")
            }
            let monitor = try bed.monitor(host: "live.nrx.test")
            let (_, paths, _) = watch(monitor)
            paths.wait(forCount: 1)
            XCTAssertEqual(paths.all.first?.resolvedAddresses.map(\.description), [], "test setup: not resolved at first: \(paths.all)")
            if !withEtcNetns && FileManager.default.fileExists(atPath: "/etc/netns") {
                throw XCTSkip("another run made /etc/netns meanwhile, so its absence cannot be tested now")
            }

            // When /etc/netns/NAME/resolv.conf is made, naming the test server
            try bed.useTestServer()
            // Then the monitor follows
            paths.wait(until: "the name resolves through the new resolv.conf") { $0.last?.resolvedAddresses.map(\.description) == [LAN.onLink] }
        }
    }

    func testServerKilledMidWatch_keepsTheLastAddresses_markedStale_untilItAnswersAgain() throws {
        try withDNSLAN { bed in
            // Given a watched name that resolved, re-resolved every 300 ms
            try bed.useTestServer()
            var server = try bed.startDNSServer([DNSRecord("live.nrx.test", LAN.onLink)])
            let monitor = try bed.monitor(host: "live.nrx.test", options: quickly)
            let (flags, paths, queue) = watch(monitor)
            paths.wait(until: "the name resolves") { $0.last?.resolvedAddresses.map(\.description) == [LAN.onLink] }
            XCTAssertFalse(paths.all.contains { $0.resolvedAddressesAreStale }, "no failure yet: \(paths.all)")

            // When the server is killed (the next lookups fail: nobody listens)
            server.stop()
            // Then a failed re-resolution keeps the last addresses, marked stale, and the flags they give
            paths.wait(until: "a path with stale addresses") { $0.last?.resolvedAddressesAreStale == true }
            let stale = monitor.currentPath
            XCTAssertTrue(stale.resolvedAddressesAreStale, "\(stale)")
            XCTAssertEqual(stale.resolvedAddresses.map(\.description), [LAN.onLink], "the last good addresses stay: \(stale)")
            XCTAssertEqual(stale.flags, [.reachable, .isDirect], "\(stale)")
            XCTAssertEqual(stale.status, .satisfied, "\(stale)")
            XCTAssertEqual(try monitor.flags(), [.reachable, .isDirect])

            // When the server answers again
            server = try bed.startDNSServer([DNSRecord("live.nrx.test", LAN.onLink)])
            // Then the addresses are fresh again
            paths.wait(until: "a definite answer clears the staleness") {
                $0.last.map { !$0.resolvedAddressesAreStale && $0.resolvedAddresses.map(\.description) == [LAN.onLink] } ?? false
            }
            settle(monitor, queue)
            // And the flags never changed
            XCTAssertEqual(flags.all, [[.reachable, .isDirect]], names(flags.all))
        }
    }

    func testNetworkChange_resolvesTheNameAgain() throws {
        try withDNSLAN { bed in
            // Given a watched name, re-resolved only every 60 s (the default)
            try bed.useTestServer()
            var server = try bed.startDNSServer([DNSRecord("moving.nrx.test", LAN.onLink)])
            let monitor = try bed.monitor(host: "moving.nrx.test")
            let (_, paths, _) = watch(monitor)
            paths.wait(until: "the name resolves") { $0.last?.resolvedAddresses.map(\.description) == [LAN.onLink] }
            // And records that changed meanwhile
            server.stop()
            server = try bed.startDNSServer([DNSRecord("moving.nrx.test", LAN.remote)])
            XCTAssertEqual(monitor.currentPath.resolvedAddresses.map(\.description), [LAN.onLink], "test setup: nothing re-resolved the name yet")

            // When a default route appears
            try bed.namespace.ip("route", "add", "default", "via", LAN.gateway)
            // Then the name is resolved again, and the new record is seen
            paths.wait(until: "the name resolves to the new record") { $0.last?.resolvedAddresses.map(\.description) == [LAN.remote] }
            XCTAssertEqual(monitor.currentPath.flags, [.reachable])
        }
    }

    func testLocalhost_comesFromTheNamespacesHostsFile_andFollowsIt() throws {
        try withDNSLAN(requiring: []) { bed in
            // Given /etc/netns/NAME/hosts giving localhost an address that /etc/hosts does not
            // (127.0.0.7; the host's file says 127.0.0.1), and no name server at all
            try bed.replaceByRename("resolv.conf", with: "# no name server\n")
            try bed.replaceByRename("hosts", with: "127.0.0.7 localhost\n")
            // Then localhost is that address: a local one
            let monitor = try assertHost("localhost", in: bed, resolvesTo: ["127.0.0.7"], winner: "127.0.0.7",
                                         is: [.reachable, .isLocalAddress, .isDirect], interface: "lo", supportsDNS: false)
            let paths = Recorder<NetworkPath>()
            monitor.pathUpdateHandler = { paths.append($0) }

            // When the hosts file is replaced (re-resolution every 60 s, no network change)
            try bed.replaceByRename("hosts", with: "127.0.0.8 localhost\n")
            // Then the monitor follows it
            paths.wait(until: "localhost follows the hosts file") { $0.last?.resolvedAddresses.map(\.description) == ["127.0.0.8"] }
            XCTAssertEqual(try monitor.flags(), [.reachable, .isLocalAddress, .isDirect])
        }
    }

    /// Schedules `monitor` with recorders of its flags and paths.
    private func watch(_ monitor: PathMonitor, function: String = #function)
        -> (flags: Recorder<ReachabilityFlags>, paths: Recorder<NetworkPath>, queue: DispatchQueue) {
        let flags = Recorder<ReachabilityFlags>()
        let paths = Recorder<NetworkPath>()
        let queue = callbackQueue(function)
        monitor.record(flags: flags, paths: paths)
        monitor.setDispatchQueue(queue)
        return (flags, paths, queue)
    }
}
