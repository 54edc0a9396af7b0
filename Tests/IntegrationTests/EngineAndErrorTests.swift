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

/// All monitors of a namespace share one engine, which goes away with the last of them.
final class EngineSharingTests: XCTestCase {
    func testMonitorsOfOneNamespace_shareOneEngine_thatGoesWithTheLastMonitor() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let baseline = EngineRegistry.liveEngineCount
            // Given monitors of every kind in one namespace, some scheduled
            var monitors: [PathMonitor] = try [
                ns.monitor(plan.onLink), ns.monitor(plan.remote), ns.monitor(plan.zero), ns.monitor(plan.onLink),
                ns.monitor(local: plan.host, remote: plan.remote), ns.generalMonitor(),
                PathMonitor(address: plan.remote, namespace: .path("/run/netns/\(ns.name)")),
            ]
            let queue = callbackQueue()
            let flags = Recorder<ReachabilityFlags>()
            for monitor in monitors.prefix(3) {
                monitor.record(flags: flags)
                monitor.setDispatchQueue(queue)
            }
            flags.wait(forCount: 3)
            // Then they share one engine, also the one named by path
            XCTAssertEqual(EngineRegistry.liveEngineCount, baseline + 1, "one engine for the namespace")
            weak let engine = monitors[0].engine
            for monitor in monitors {
                XCTAssertTrue(monitor.engine === monitors[0].engine, "\(monitor.targetDescription) has an engine of its own")
            }
            // When the last monitor goes (without unscheduling)
            monitors.removeAll()
            // Then so does the engine
            try waitUntil("the engine is deallocated") { engine == nil }
            XCTAssertEqual(EngineRegistry.liveEngineCount, baseline)
            queue.sync {}
        }
    }

    func testMonitorsOfTwoNamespaces_haveTwoEngines() throws {
        try withNamespace { first in
            try withNamespace { second in
                let baseline = EngineRegistry.liveEngineCount
                var a: PathMonitor? = try first.monitor("127.0.0.1")
                var b: PathMonitor? = try second.monitor("127.0.0.1")
                XCTAssertEqual(EngineRegistry.liveEngineCount, baseline + 2)
                XCTAssertFalse(a!.engine === b!.engine)
                weak let engineA = a?.engine
                weak let engineB = b?.engine
                a = nil
                try waitUntil("the first engine is deallocated") { engineA == nil }
                XCTAssertNotNil(engineB, "the second namespace's engine stays while its monitor does")
                XCTAssertEqual(EngineRegistry.liveEngineCount, baseline + 1)
                b = nil
                try waitUntil("the second engine is deallocated") { engineB == nil }
                XCTAssertEqual(EngineRegistry.liveEngineCount, baseline)
            }
        }
    }
}

/// semantics.md, "Bad input": a typed error for each, no crash, no hang.
final class BadInputTests: XCTestCase {
    func testNonexistentNamespace_throwsNamespaceNotFound() throws {
        try withNamespace { _ in
            let name = "nrx-it-\(getpid())-absent"
            let missingFile = "/run/netns/\(name)-by-path"
            let attempts: [(String, () throws -> PathMonitor, String)] = [
                ("address", { try PathMonitor(address: "10.9.0.5", namespace: .named(name)) }, "/run/netns/\(name)"),
                ("pair", { try PathMonitor(localAddress: "10.9.0.2", remoteAddress: "10.9.0.5", namespace: .named(name)) }, "/run/netns/\(name)"),
                // The general path does not throw (api.md): its monitor carries the error.
                ("general", {
                    let monitor = PathMonitor(namespace: .named(name))
                    if let error = monitor.setupError { throw error }
                    return monitor
                }, "/run/netns/\(name)"),
                ("path", { try PathMonitor(address: "::1", namespace: .path(missingFile)) }, missingFile),
            ]
            let general = PathMonitor(namespace: .named(name))
            XCTAssertEqual(general.currentPath.unsatisfiedReason, .namespaceUnavailable)
            XCTAssertThrowsError(try general.flags())
            for (kind, make, path) in attempts {
                XCTAssertThrowsError(try make(), "\(kind)") { error in
                    XCTAssertEqual(error as? ReachabilityError, .namespaceNotFound(path: path), "\(kind): \(error)")
                    XCTAssertTrue("\(error)".contains(path), "\(kind): the message names the namespace: \(error)")
                }
            }
        }
    }

    func testFileThatIsNotANamespace_throwsNamespaceNotEnterable() throws {
        try withNamespace { _ in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("nrx-it-\(getpid())-not-a-netns").path
            XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
            defer { try? FileManager.default.removeItem(atPath: file) }
            XCTAssertThrowsError(try PathMonitor(address: "10.9.0.5", namespace: .path(file))) { error in
                guard case .namespaceNotEnterable(let path, let function, let code)? = error as? ReachabilityError else {
                    return XCTFail("expected namespaceNotEnterable, got \(error)")
                }
                XCTAssertEqual(path, file)
                XCTAssertEqual(function, "setns", "\(error)")
                XCTAssertEqual(code, EINVAL, "\(error)")
            }
        }
    }

    func testInvalidAddressStrings_throwInvalidAddress() throws {
        try withNamespace { ns in
            let invalid = [
                "", "10.0.0.256", "10.0.0", "10.0.0.1.2", "not an address", "example.com", " 10.0.0.1", "10.0.0.1 ",
                "10.0.0.1/24", "10.0.0.1%v0", "2001:db8::g", "2001:db8:::1", "1:2:3:4:5:6:7:8:9", "fe80::1%",
                "fe80::1%a/b", "fe80::1%0123456789abcdefg", "10.0.0.1\0", "::1\0garbage",
            ]
            for text in invalid {
                XCTAssertThrowsError(try ns.monitor(text), "address '\(text)'") { error in
                    guard case .invalidAddress? = error as? ReachabilityError else {
                        return XCTFail("address '\(text)': expected invalidAddress, got \(error)")
                    }
                }
                XCTAssertThrowsError(try ns.monitor(local: text, remote: "10.9.0.5"), "local '\(text)'") { error in
                    guard case .invalidAddress? = error as? ReachabilityError else {
                        return XCTFail("local '\(text)': expected invalidAddress, got \(error)")
                    }
                }
                XCTAssertThrowsError(try ns.monitor(local: nil, remote: text), "remote '\(text)'") { error in
                    guard case .invalidAddress? = error as? ReachabilityError else {
                        return XCTFail("remote '\(text)': expected invalidAddress, got \(error)")
                    }
                }
            }
        }
    }
}
