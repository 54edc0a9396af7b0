import Foundation
import NetworkReachability
import NetworkReachabilityService
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import XCTest

/// `PathMonitorService` in the shape swift-service-lifecycle expects: paths while running, a
/// return on graceful shutdown, a throw when the namespace fails, never an early return.
final class PathMonitorServiceTests: XCTestCase {
    private static let timeout: TimeInterval = 10

    func testRun_deliversTheCurrentPathFirst_andReturnsOnGracefulShutdown() async throws {
        // Given: a service watching loopback in the process's own namespace (read only)
        let firstPath = expectation(description: "first path")
        let paths = Mutex<[NetworkPath]>([])
        let service = PathMonitorService(makeMonitor: { try PathMonitor(address: "127.0.0.1") }) { path in
            let count = paths.withLock { $0.append(path); return $0.count }
            if count == 1 { firstPath.fulfill() }
        }

        // When: it runs, then the group shuts down gracefully
        try await testGracefulShutdown { trigger in
            let run = Task { try await service.run() }
            await fulfillment(of: [firstPath], timeout: Self.timeout)
            trigger.triggerGracefulShutdown()
            // Then: run() returns without throwing
            try await run.value
        }
        XCTAssertEqual(paths.withLock { $0.first?.flags }, [.reachable, .isLocalAddress, .isDirect])
    }

    func testRun_whenTheMonitorCannotBeMade_throwsItsError() async {
        let service = PathMonitorService(makeMonitor: { try PathMonitor(address: "not an address") }) { _ in }
        do {
            try await service.run()
            XCTFail("run() returned although no monitor could be made")
        } catch let error as ReachabilityError {
            guard case .invalidAddress = error else { return XCTFail("unexpected error \(error)") }
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }

    func testRun_whenTheNamespaceIsMissing_throwsNamespaceNotFound() async {
        let missing = NetworkNamespace.named("nrx-svc-\(getpid())-never-made")
        let service = PathMonitorService(makeMonitor: { PathMonitor(namespace: missing) }) { _ in }
        do {
            try await service.run()
            XCTFail("run() returned for a namespace that does not exist")
        } catch let error as ReachabilityError {
            XCTAssertEqual(error, .namespaceNotFound(path: missing.path))
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }

    func testRun_whenTheNamespaceGoesAway_throws() async throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to make a network namespace (running as euid \(geteuid()))") }
        // Given: a namespace of our own, watched by the service
        let name = "nrx-svc-\(getpid())-gone"
        guard Self.ip("netns", "add", name) == 0 else { throw XCTSkip("'ip netns add' failed: namespaces are not available here") }
        defer { _ = Self.ip("netns", "del", name) }
        let firstPath = expectation(description: "first path")
        firstPath.assertForOverFulfill = false
        let service = PathMonitorService(makeMonitor: { PathMonitor(namespace: .named(name)) }) { _ in firstPath.fulfill() }
        let run = Task { try await service.run() }
        await fulfillment(of: [firstPath], timeout: Self.timeout)

        // When: the namespace is deleted
        XCTAssertEqual(Self.ip("netns", "del", name), 0)

        // Then: run() throws, naming the namespace
        do {
            try await run.value
            XCTFail("run() returned although its namespace went away")
        } catch let error as ReachabilityError {
            XCTAssertEqual(error, .namespaceNotFound(path: "/run/netns/\(name)"))
        }
    }

    /// Runs `ip` with the arguments; returns its exit status.
    private static func ip(_ arguments: String...) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
