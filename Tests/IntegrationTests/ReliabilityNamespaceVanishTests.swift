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

/// Issue 8, item 5: a namespace that goes away. The monitors report `unsatisfied` with
/// `namespaceUnavailable`, the engine closes its sockets, leaves the registry and uses no CPU,
/// and new monitors of the namespace get `namespaceNotFound`. No crash, no spin.
///
/// And the library lets the kernel free the namespace: no socket and no thread of the process
/// stays in it. A witness proves it: a veth pair with one end in the vanishing namespace and the
/// other in a second namespace; the kernel destroys the pair when it frees the first one.
final class ReliabilityNamespaceVanishTests: XCTestCase {
    /// The CPU share the process may use in the second after the namespace went.
    static let idleCPUShare = 0.05

    /// Measures the process's CPU share over one second. The window is the measurement itself,
    /// not a wait for a condition.
    private func cpuShareOverOneSecond() -> Double {
        let cpu = ProcessResources.cpuSeconds
        let start = DispatchTime.now()
        usleep(1_000_000)
        return (ProcessResources.cpuSeconds - cpu) / (DispatchTime.now().milliseconds(since: start) / 1_000)
    }

    /// Watches `namespace` with a scheduled address monitor and a scheduled general-path monitor,
    /// calls `vanish`, and checks every promise. `lo` must be up in the namespace.
    private func assertVanishes(_ namespace: NetworkNamespace, path: String, target: String, before expected: ReachabilityFlags,
                                witness: Namespace, vanish: () throws -> Void,
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let engines = EngineRegistry.liveEngineCount
        let descriptors = ProcessResources.openDescriptors
        let threads = ProcessResources.threads
        // Given scheduled monitors of the namespace: an address, the general path, and a host name
        // (whose resolver threads enter the namespace)
        let monitor = try PathMonitor(address: target, namespace: namespace)
        let host = try PathMonitor(host: "localhost", namespace: namespace)
        let hostFlags = Recorder<ReachabilityFlags>()
        host.record(flags: hostFlags)
        let general = PathMonitor(namespace: namespace)
        XCTAssertNil(general.setupError, file: file, line: line)
        let paths = Recorder<NetworkPath>()
        let generalPaths = Recorder<NetworkPath>()
        let flags = Recorder<ReachabilityFlags>()
        monitor.record(flags: flags, paths: paths)
        general.record(paths: generalPaths)
        let queue = callbackQueue()
        monitor.start(queue: queue)
        general.start(queue: queue)
        host.setDispatchQueue(queue)
        flags.wait(forLast: expected, file: file, line: line)
        hostFlags.wait(forLast: expected, file: file, line: line)
        generalPaths.wait(forCount: 1, file: file, line: line)
        let engine = try XCTUnwrap(monitor.engine, file: file, line: line)
        XCTAssertEqual(EngineRegistry.liveEngineCount, engines + 1, file: file, line: line)

        // When the namespace goes away
        try vanish()

        // Then both report unsatisfied, because the namespace is unavailable, through their callbacks
        paths.wait(until: "the path says the namespace is unavailable", file: file, line: line) {
            $0.last?.status == .unsatisfied && $0.last?.unsatisfiedReason == .namespaceUnavailable
        }
        generalPaths.wait(until: "the general path says the namespace is unavailable", file: file, line: line) {
            $0.last?.unsatisfiedReason == .namespaceUnavailable
        }
        flags.wait(forLast: [], file: file, line: line)
        hostFlags.wait(forLast: [], file: file, line: line)
        XCTAssertEqual(monitor.currentPath.unsatisfiedReason, .namespaceUnavailable, file: file, line: line)
        XCTAssertEqual(try monitor.flags(), [], file: file, line: line)
        // And the engine closed its sockets and its watches, and left the registry
        XCTAssertTrue(engine.hasVanished, file: file, line: line)
        XCTAssertEqual(EngineRegistry.liveEngineCount, engines, "the vanished engine is still registered", file: file, line: line)
        try waitUntil("the engine's descriptors are closed (\(descriptors) before it opened, now \(ProcessResources.openDescriptors))",
                      file: file, line: line) {
            ProcessResources.openDescriptors <= descriptors
        }
        // And no thread or socket of the process keeps the namespace: the kernel frees it
        try waitUntil("the kernel freed the namespace (the witness veth w0 went with it)", file: file, line: line) {
            try witness.ipAnswer(["link", "show", "dev", "w0"]).status != 0
        }
        try waitUntil("the resolver threads exited (\(threads) before, now \(ProcessResources.threads))", file: file, line: line) {
            ProcessResources.threads <= threads + ReliabilityLeakTests.threadMargin
        }
        // And the process uses no CPU afterwards (no spin on a dead descriptor)
        let share = cpuShareOverOneSecond()
        XCTAssertLessThan(share, Self.idleCPUShare, "process CPU in the second after \(path) vanished", file: file, line: line)
        // And new monitors of it get an error
        XCTAssertThrowsError(try PathMonitor(address: target, namespace: namespace), file: file, line: line) { error in
            XCTAssertEqual(error as? ReachabilityError, .namespaceNotFound(path: path), "\(error)", file: file, line: line)
        }
        let late = PathMonitor(namespace: namespace)
        XCTAssertEqual(late.setupError, .namespaceNotFound(path: path), file: file, line: line)
        XCTAssertEqual(late.currentPath.unsatisfiedReason, .namespaceUnavailable, file: file, line: line)
        // And the old monitors can still be used and released without harm
        settle(monitor, queue)
        let delivered = paths.count
        monitor.unschedule()
        monitor.start(queue: queue)
        paths.wait(forCount: delivered + 1, file: file, line: line)
        XCTAssertEqual(paths.all.last?.unsatisfiedReason, .namespaceUnavailable, file: file, line: line)
        monitor.cancel()
        general.cancel()
        host.unschedule()
        print("reliability vanish: \(path): process CPU \(String(format: "%.1f", share * 100))% in the second after")
    }

    func testNamedNamespaceDeleted_monitorsReportNamespaceUnavailable_engineStops_newMonitorsFail() throws {
        try withReliabilityNamespace { witness in
            try withReliabilityNamespace { ns in
                try witness.ip("link", "add", "w0", "type", "veth", "peer", "name", "x0", "netns", ns.name)
                try assertVanishes(ns.reference, path: "/run/netns/\(ns.name)", target: "127.0.0.1",
                                   before: [.reachable, .isLocalAddress, .isDirect], witness: witness) {
                    try ip("netns", "del", ns.name)
                }
                XCTAssertFalse(namespaceIsListed(ns.name))
                // And a new namespace of the same name is a new namespace: new monitors watch it,
                // with an engine of their own
                try ip("netns", "add", ns.name)
                try ns.ip("link", "set", "lo", "up")
                let again = try ns.monitor("127.0.0.1")
                XCTAssertEqual(try again.flags(), [.reachable, .isLocalAddress, .isDirect])
                XCTAssertEqual(again.engine?.hasVanished, false)
            }
        }
    }

    func testProcessNamespaceGone_whenItsProcessIsKilled_monitorsReportNamespaceUnavailable() throws {
        try withReliabilityNamespace { witness in
            try processNamespaceGone(witness: witness)
        }
    }

    private func processNamespaceGone(witness: Namespace) throws {
        let unshare = try XCTUnwrap(["/usr/bin/unshare", "/bin/unshare"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                    "unshare (util-linux)")
        // Given a process with a network namespace of its own (unshare execs sleep in the same process)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: unshare)
        child.arguments = ["--net", "sleep", "1000"]
        try child.run()
        defer {
            if child.isRunning {
                child.terminate()
                child.waitUntilExit()
            }
        }
        let pid = child.processIdentifier
        let path = "/proc/\(pid)/ns/net"
        let own = try NamespaceEntry.identity(of: .current)
        try waitUntil("\(pid) has a network namespace of its own") {
            (try? NamespaceEntry.identity(of: .path(path))).map { $0 != own } ?? false
        }
        let lo = try runCommand("/usr/bin/nsenter", ["--net=\(path)", ipExecutable, "link", "set", "lo", "up"])
        XCTAssertEqual(lo.status, 0, lo.standardError)
        try witness.ip("link", "add", "w0", "type", "veth", "peer", "name", "x0", "netns", String(pid))
        try assertVanishes(.path(path), path: path, target: "127.0.0.1", before: [.reachable, .isLocalAddress, .isDirect],
                           witness: witness) {
            // When the process is killed
            kill(pid, SIGKILL)
            child.waitUntilExit()
        }
    }
}
