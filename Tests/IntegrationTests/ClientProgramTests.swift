import Foundation
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import ReachabilityCompat
import XCTest

/// Issue 18: the client programs under `Clients/`, written against Apple's names only
/// (`import SystemConfiguration`), run in a namespace with a default route and a name server.
final class ClientProgramTests: XCTestCase {
    /// A bed with a LAN, a default route via its gateway, and the zone server; Apple's functions
    /// make their targets in it.
    private func withClientBed(_ body: (DNSTestBed) throws -> Void) throws {
        try withDNSNamespace(requiring: [.python]) { bed in
            try bed.addLAN()
            try bed.namespace.ip("route", "add", "default", "via", LAN.gateway)
            try bed.useTestServer()
            try bed.startZoneServer()
            let before = ReachabilityCompat.defaultNamespace
            ReachabilityCompat.defaultNamespace = bed.namespace.reference
            defer { ReachabilityCompat.defaultNamespace = before }
            try body(bed)
        }
    }

    /// Waits until whatever the engine and `queue` hold for `target` has run.
    private func settle(_ target: PathMonitor, _ queue: DispatchQueue) {
        _ = target.engine?.onLoop { _ in }
        queue.sync {}
    }

    func testLengthFields_readTheStructSize_andSettingThemIsHarmless() {
        var address = sockaddr()
        address.sa_len = 200
        XCTAssertEqual(Int(address.sa_len), MemoryLayout<sockaddr>.size)
        var address4 = sockaddr_in()
        address4.sin_len = 1
        XCTAssertEqual(Int(address4.sin_len), MemoryLayout<sockaddr_in>.size)
        var address6 = sockaddr_in6()
        address6.sin6_len = 1
        XCTAssertEqual(Int(address6.sin6_len), MemoryLayout<sockaddr_in6>.size)
    }

    func testListeningManager_queueFirstAndCallbackFirst_restarted_oneDeliveryPerStart() throws {
        try withClientBed { bed in
            let queue = DispatchQueue(label: "listener")
            let manager = try XCTUnwrap(ListeningManager())
            let expected = try XCTUnwrap(manager.flags)
            XCTAssertTrue(expected.contains(.reachable), "the default route works: \(names(expected))")
            var starts = 0
            for queueFirst in [false, true, false, true] {
                starts += 1
                XCTAssertTrue(manager.startListening(on: queue, queueFirst: queueFirst))
                manager.flagsSeen.wait(forCount: starts)
                settle(manager.target, queue)
                XCTAssertEqual(manager.flagsSeen.all, Array(repeating: expected, count: starts),
                               "each start delivers the current flags once (queue first: \(queueFirst))")
            }
            XCTAssertEqual(manager.statusChanges.all, Array(repeating: .reachable, count: starts))
            // A change after the last start arrives, once.
            try bed.namespace.ip("route", "del", "default")
            manager.flagsSeen.wait(forLast: [])
            settle(manager.target, queue)
            XCTAssertEqual(manager.flagsSeen.all.suffix(2), [expected, []])
            manager.stopListening()
        }
    }

    /// semantics.md guarantee 2: a zero-address target scheduled queue-first, while other targets
    /// of the process finish their first resolution, gets its flags once (it got them twice in a
    /// row in 2 of 25 runs before).
    func testZeroAddressQueueFirst_whileOtherNamesResolve_neverGetsTheSameFlagsTwice() throws {
        try withClientBed { bed in
            let queue = DispatchQueue(label: "listener")
            let others = DispatchQueue(label: "others")
            for round in 0..<25 {
                // Names that no one resolved before, their first answers on their way while the listener starts.
                let hostNames = (0..<4).map { "z\(round)-\($0).remote.nrx.test" }
                let monitors = try hostNames.map { try bed.monitor(host: $0) }
                monitors.forEach { monitor in
                    monitor.setCallback { _ in }
                    monitor.setDispatchQueue(others)
                }
                let manager = try XCTUnwrap(ListeningManager())
                XCTAssertTrue(manager.startListening(on: queue, queueFirst: round % 2 == 0))
                manager.flagsSeen.wait(forCount: 1)
                monitors.forEach { _ = $0.currentPath }  // their first resolutions have finished
                settle(manager.target, queue)
                XCTAssertEqual(manager.flagsSeen.count, 1, "round \(round): \(names(manager.flagsSeen.all))")
                manager.stopListening()
                monitors.forEach { $0.unschedule() }
            }
        }
    }

    /// The same race made likely: the first delivery is held on the queue until the callback is
    /// being set, so that it runs while `SCNetworkReachabilitySetCallback` is under way.
    func testZeroAddressQueueFirst_firstDeliveryRacingTheCallback_neverGetsTheSameFlagsTwice() throws {
        try withClientBed { _ in
            let queue = DispatchQueue(label: "listener")
            var doubled: [String] = []
            for round in 0..<200 {
                let manager = try XCTUnwrap(ListeningManager())
                let release = DispatchSemaphore(value: 0)
                queue.async { release.wait() }
                SCNetworkReachabilitySetDispatchQueue(manager.target, queue)
                release.signal()
                XCTAssertTrue(manager.startListening(on: queue, queueFirst: true, restart: false))
                manager.flagsSeen.wait(forCount: 1)
                settle(manager.target, queue)
                if manager.flagsSeen.count != 1 { doubled.append("round \(round): \(names(manager.flagsSeen.all))") }
                manager.stopListening()
            }
            XCTAssertEqual(doubled, [])
        }
    }

    func testWeakBoxNotifier_contextRetainedReleased_describedThroughCopyDescription() throws {
        try withClientBed { _ in
            let queue = DispatchQueue(label: "notifier")
            for queueFirst in [false, true] {
                let notifier = try XCTUnwrap(WeakBoxNotifier(hostname: "n\(queueFirst).onlink.nrx.test", queue: queue))
                XCTAssertTrue(notifier.startNotifier(queueFirst: queueFirst))
                notifier.flagsSeen.wait(forCount: 1)
                settle(notifier.target, queue)
                XCTAssertEqual(notifier.flagsSeen.all, [[.reachable, .isDirect]], "queue first: \(queueFirst)")
                // Apple's description of a target carries its context's description.
                let description = String(describing: notifier.target)
                XCTAssertTrue(description.contains("notifier of n\(queueFirst).onlink.nrx.test"), description)
                XCTAssertEqual(notifier.box.descriptionsMade.load(ordering: .relaxed), 1)
                XCTAssertNil(notifier.box.lastDescription, "the string copyDescription returned retained was released")
                XCTAssertEqual(notifier.box.retains.load(ordering: .relaxed), 1)
                notifier.stopNotifier()
                XCTAssertEqual(notifier.box.releases.load(ordering: .relaxed), 1)
                // Restarted: the current state once more, and one more retain.
                XCTAssertTrue(notifier.startNotifier(queueFirst: !queueFirst))
                notifier.flagsSeen.wait(forCount: 2)
                settle(notifier.target, queue)
                XCTAssertEqual(notifier.flagsSeen.count, 2)
                notifier.stopNotifier()
                XCTAssertEqual(notifier.box.retains.load(ordering: .relaxed), 2)
                XCTAssertEqual(notifier.box.releases.load(ordering: .relaxed), 2)
            }
        }
    }

    func testWeakBoxNotifier_releasedWhileScheduled_stopsAndReleasesItsContext() throws {
        try withClientBed { bed in
            let queue = DispatchQueue(label: "notifier")
            for queueFirst in [false, true] {
                var notifier: WeakBoxNotifier? = try XCTUnwrap(WeakBoxNotifier(zeroAddressOn: queue))
                XCTAssertTrue(notifier!.startNotifier(queueFirst: queueFirst))
                notifier!.flagsSeen.wait(forCount: 1)
                // The callout holds the notifier while it runs: let it return first.
                settle(notifier!.target, queue)
                let box = notifier!.box
                let target = notifier!.target
                weak let gone = notifier
                notifier = nil
                XCTAssertNil(gone, "nothing but the caller holds the notifier")
                XCTAssertEqual(box.retains.load(ordering: .relaxed), 1)
                XCTAssertEqual(box.releases.load(ordering: .relaxed), 1, "its deinit stopped it and the context went")
                // A change after that reaches no one.
                try bed.namespace.ip("route", "del", "default")
                _ = try target.flags()
                settle(target, queue)
                XCTAssertEqual(box.orphanCallbacks.load(ordering: .relaxed), 0)
                try bed.namespace.ip("route", "add", "default", "via", LAN.gateway)
            }
        }
    }
}
