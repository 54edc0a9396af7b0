import Dispatch
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

/// Containers come and go: each start makes a host-side veth that is up, has carrier and holds
/// only an IPv6 link-local address, each stop removes it. No packet of a target can leave by such
/// a link, so no monitor's path may move (docs/semantics.md, decision (o)).
final class ContainerChurnTests: XCTestCase {
    func testVethPairsWithOnlyLinkLocalAddresses_moveNoPath() throws {
        try withNamespace { ns in
            // Given: a general-path monitor on a LAN with a default route, its path handler recording
            let (monitor, paths, queue) = try watchGeneralPathOnALAN(ns)
            let before = monitor.engine!.currentCounters

            // When: five containers start (a veth pair each, both ends up, IPv6 link-local addresses)
            let pairs = (0..<5).map { "ch\($0)" }
            for name in pairs { try ns.addVeth(name) }
            try waitUntil("the engine holds every container veth's link-local address") {
                let statuses = try NetworkInterface.statuses(in: ns.reference)
                return pairs.allSatisfy { name in
                    statuses.first { $0.interface.name == name }?.addresses.contains { $0.hasPrefix("fe80:") } ?? false
                }
            }
            settle(monitor, queue)

            // Then: the path did not move, the veths are not among the available interfaces, and
            // the engine asked the kernel nothing for them
            XCTAssertEqual(paths.all.count, 1, "container veths moved the path: \(paths.all.map(\.availableInterfaces))")
            XCTAssertEqual(monitor.currentPath.availableInterfaces.map(\.name), ["v0"])
            XCTAssertEqual(monitor.engine!.currentCounters.lookups, before.lookups, "lookups for links no route of the target uses")

            // When: they stop
            for name in pairs { try ns.ip("link", "del", name) }
            try waitUntil("the engine saw the veths go") {
                try NetworkInterface.statuses(in: ns.reference).allSatisfy { !pairs.contains($0.interface.name) }
            }
            settle(monitor, queue)

            // Then: still no callback and no lookup; a real change still gets through
            XCTAssertEqual(paths.all.count, 1, "container veths moved the path: \(paths.all.map(\.availableInterfaces))")
            // The engine waited for the kernel to finish each deletion instead of looking again later
            XCTAssertGreaterThan(monitor.engine!.currentCounters.settles, before.settles)
            XCTAssertEqual(monitor.engine!.currentCounters.secondLooks, before.secondLooks, "a second look, with the kernel waited for")
            XCTAssertEqual(monitor.engine!.currentCounters.lookups, before.lookups, "lookups for links no route of the target uses")
            try ns.ip("-4", "route", "del", "default")
            paths.wait(forCount: 2)
            XCTAssertEqual(paths.all.last?.status, .unsatisfied)
        }
    }

    /// A container runtime or routing daemon adds and deletes routes no monitor asks about: the
    /// kernel drops their messages before they reach the engine's socket (its route filter), so
    /// the engine neither reads them, nor waits for the kernel to finish those deletions, nor
    /// looks again later. A deletion that meets a monitor's question is asked about at once
    /// (`UnconfirmedDeletionTests`).
    func testRouteDeletionsNoMonitorAsksAbout_neverReachTheEngine() throws {
        try withNamespace { ns in
            let (monitor, paths, queue) = try watchGeneralPathOnALAN(ns)
            let engine = try XCTUnwrap(monitor.engine)
            let before = engine.currentCounters

            // When: routes to a prefix no question of the general path falls in come and go
            for _ in 0..<5 {
                try ns.ip("-4", "route", "add", "198.51.100.0/24", "via", AddressPlan.ipv4.gateway)
                try ns.ip("-4", "route", "del", "198.51.100.0/24", "via", AddressPlan.ipv4.gateway)
            }
            // (The kernel has queued or dropped each message by the time `ip` returns: what is
            // queued is read now.)
            let after = try readQueued(engine)
            settle(monitor, queue)

            // Then: nothing read, no wait for the kernel, no second look, no lookup, no callback
            XCTAssertEqual(after.kernelEvents, before.kernelEvents, "route messages no monitor asks about reached the engine")
            XCTAssertEqual(after.settles, before.settles, "waited for deletions no monitor asks about")
            XCTAssertEqual(after.secondLooks, before.secondLooks)
            XCTAssertEqual(after.lookups, before.lookups)
            XCTAssertEqual(paths.all.count, 1)

            // When: the default route goes, which the general path asks about: it is asked
            try ns.ip("-4", "route", "del", "default")
            paths.wait(forCount: 2)
            XCTAssertEqual(paths.all.last?.status, .unsatisfied)
            XCTAssertGreaterThan(monitor.engine!.currentCounters.lookups, after.lookups)
        }
    }

    func testALinkLocalOnlyInterface_isListedWhenTheTargetsRouteLeavesByIt() throws {
        try withNamespace { ns in
            // Given: a pod-style /32 route over a veth that holds only a link-local address
            try ns.addLAN(.ipv4)
            try ns.addVeth("cali1")
            try ns.ip("-4", "route", "add", "10.244.1.9/32", "dev", "cali1")

            // When: a monitor of that address is read
            let path = try ns.monitor("10.244.1.9").currentPath

            // Then: its interface comes first, and the LAN is still listed
            XCTAssertEqual(path.interface?.name, "cali1")
            XCTAssertEqual(path.availableInterfaces.map(\.name), ["cali1", "v0"])
        }
    }
}

/// A general-path monitor started on a LAN with a default route, its paths recorded, once its
/// first path came and the kernel's own late events of the LAN's setup (linkwatch, IPv6
/// autoconfiguration) are over: they would count lookups and waits that are not the test's.
private func watchGeneralPathOnALAN(_ ns: Namespace) throws -> (PathMonitor, Recorder<NetworkPath>, DispatchQueue) {
    try ns.addLAN(.ipv4, linkLocal: false)  // no late DAD events on the LAN itself
    try ns.ip("-4", "route", "add", "default", "via", AddressPlan.ipv4.gateway, "dev", "v0")
    let monitor = try ns.generalMonitor()
    let paths = Recorder<NetworkPath>()
    let queue = callbackQueue()
    monitor.pathUpdateHandler = { paths.append($0) }
    monitor.start(queue: queue)
    paths.wait(forCount: 1)
    try waitUntilQuiet(monitor.engine!)
    return (monitor, paths, queue)
}
