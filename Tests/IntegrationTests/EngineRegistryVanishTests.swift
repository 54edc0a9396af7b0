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

/// Issue 15, bug 1: a namespace that vanishes while its engine is being made. The engine's vanish
/// watcher looks once at creation and, finding the namespace gone, makes the engine leave the
/// registry: that must not need the registry's lock while the registry holds it to build.
final class EngineRegistryVanishTests: XCTestCase {
    func testNamespaceDeletedWhileItsEngineIsMade_monitorCreationFailsWithNamespaceNotFound_noDeadlock() throws {
        try withReliabilityNamespace { ns in
            // Given a namespace deleted in the window between the new engine's open and its watch
            let name = ns.name
            NetlinkEngine.afterSocketsOpened.withLock { hook in
                hook = { namespace in
                    guard namespace == .named(name) else { return }
                    _ = try? ip("netns", "del", name)
                }
            }
            defer { NetlinkEngine.afterSocketsOpened.withLock { $0 = nil } }
            let engines = EngineRegistry.liveEngineCount

            // When a monitor of it is made (on a thread of its own, so a deadlock fails the test instead of hanging it)
            let outcome = Recorder<Result<Void, ReachabilityError>>()
            Thread.detachNewThread {
                do {
                    _ = try PathMonitor(address: "127.0.0.1", namespace: .named(name))
                    outcome.append(.success(()))
                } catch {
                    outcome.append(.failure(error as! ReachabilityError))
                }
            }

            // Then it returns, with the error a vanished namespace gives, and no engine stays registered
            XCTAssertTrue(outcome.wait(forCount: 1), "making a monitor deadlocked when its namespace vanished during creation")
            guard case .failure(let error)? = outcome.all.first else {
                return XCTFail("a monitor of a deleted namespace was made: \(outcome.all)")
            }
            XCTAssertEqual(error, .namespaceNotFound(path: "/run/netns/\(name)"))
            XCTAssertEqual(EngineRegistry.liveEngineCount, engines, "the vanished engine is registered")
            XCTAssertFalse(namespaceIsListed(name))
        }
    }
}
