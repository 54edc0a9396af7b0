import Dispatch
import Foundation
import XCTest
@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import ReachabilityModel
import ReachabilitySystem

/// Loops never wait on each other: a callback on namespace A's engine thread may read, make and
/// cancel monitors of namespace B while B's callback does the same to A (docs/semantics.md,
/// "Callbacks on the engine's thread").
final class CrossNamespaceLoopTests: XCTestCase {
    /// Link flaps in each namespace: 250 down-up cycles each, 1,000 changes in all.
    private static let cyclesPerNamespace = 250

    func testTwoNamespacesFlapping_eachCallbackReadingTheOther_noStall_cleanStop() throws {
        try withNamespace { first in
            try withNamespace { second in
                let plan = AddressPlan.ipv4
                try first.addLAN(plan)
                try second.addLAN(plan)
                let threadsBefore = ProcessResources.threads(named: LoopThread.name)
                let reads = LockedState([0, 0])
                let crossMade = LockedState([0, 0])
                let flags = [Recorder<ReachabilityFlags>(), Recorder<ReachabilityFlags>()]
                do {
                    // Given a monitor on each namespace's engine thread, and an unscheduled one in each
                    let watched = [try first.monitor(plan.onLink), try second.monitor(plan.onLink)]
                    let unscheduled = [try first.monitor(plan.gateway), try second.monitor(plan.gateway)]
                    let namespaces = [first.reference, second.reference]
                    for side in 0..<2 {
                        let other = 1 - side
                        let otherMonitor = unscheduled[other]
                        let otherNamespace = namespaces[other]
                        let recorder = flags[side]
                        watched[side].setCallback { value in
                            // On this namespace's loop: a read of the other namespace's
                            // unscheduled monitor (its loop answers), and now and then a monitor
                            // of the other namespace made, read and cancelled.
                            _ = otherMonitor.currentPath
                            let count = reads.withLock { counts -> Int in
                                counts[side] += 1
                                return counts[side]
                            }
                            if count % 16 == 1, let made = try? PathMonitor(address: plan.gateway, namespace: otherNamespace) {
                                _ = try? made.flags()
                                made.scheduleOnEngineThread()
                                made.cancel()
                                crossMade.withLock { $0[side] += 1 }
                            }
                            recorder.append(value)
                        }
                        XCTAssertTrue(watched[side].scheduleOnEngineThread())
                    }
                    flags[0].wait(forCount: 1)
                    flags[1].wait(forCount: 1)
                    // When both links flap at once, one `ip` a change, so each loop sees most
                    // of them (a batch would land before the loops read anything)
                    let failures = LockedState<[String]>([])
                    let group = DispatchGroup()
                    for namespace in [first, second] {
                        group.enter()
                        Thread.detachNewThread {
                            defer { group.leave() }
                            do {
                                for _ in 0..<Self.cyclesPerNamespace {
                                    try namespace.ip("link", "set", "v0", "down")
                                    try namespace.ip("link", "set", "v0", "up")
                                }
                            } catch {
                                failures.withLock { $0.append("\(error)") }
                            }
                        }
                    }
                    XCTAssertEqual(group.wait(timeout: .now() + 300), .success, "the flaps ran")
                    XCTAssertEqual(failures.withLock { $0 }, [])
                    // Then neither loop stalled: each still tells the final state, and each
                    // callback read the other namespace and made monitors there
                    for side in 0..<2 {
                        flags[side].wait(until: "namespace \(side) reachable after the flaps") {
                            $0.last == [.reachable, .isDirect]
                        }
                    }
                    let counts = reads.withLock { $0 }
                    XCTAssertGreaterThan(counts[0], 10, "the first namespace's callback read the second")
                    XCTAssertGreaterThan(counts[1], 10, "the second namespace's callback read the first")
                    XCTAssertEqual(crossMade.withLock { $0 }.filter { $0 > 0 }.count, 2, "each side made a monitor of the other")
                    XCTAssertEqual(try unscheduled[0].flags(), [.reachable, .isDirect])
                    XCTAssertEqual(try unscheduled[1].flags(), [.reachable, .isDirect])
                    watched.forEach { $0.cancel() }
                }
                // And everything stops cleanly: with the monitors gone, both loops end
                try waitUntil("both engines' loop threads ended") {
                    ProcessResources.threads(named: LoopThread.name, startedSince: threadsBefore).isEmpty
                }
            }
        }
    }
}
