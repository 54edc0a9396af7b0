import Foundation
import ReachabilityCompat
import XCTest

/// Issue 31: `Clients/PathReporter.swift`, written as Apple documents the iOS and macOS 26 SDK's
/// members, builds against ReachabilityCompat unchanged and follows a namespace: satisfied with
/// the gateway's address, unsatisfied with `.notAvailable` when the default route goes, the cable
/// is out or the link goes down, satisfied again.
final class CompatAppleClientTests: XCTestCase {
    func testAppleClient_followsRouteAndLink_satisfiedUnsatisfiedSatisfied() throws {
        try withCompatNamespace { namespace in
            // Given: a client written against Apple's documentation
            let reporter = PathReporter()
            XCTAssertNil(reporter.queueBeforeStart, "the queue is nil before start(queue:)")
            reporter.start()
            defer { reporter.stop() }
            XCTAssertTrue(reporter.startedOnItsQueue, "the queue is the one given to start(queue:)")
            let satisfied = PathReport(status: "satisfied", gateways: ["10.9.0.2"])
            let unsatisfied = PathReport(status: "unsatisfied", gateways: [])

            // Then: satisfied over the veth, with the gateway's address and the veth's speed (10 Gb/s full duplex)
            reporter.reports.wait(until: "satisfied with the gateway") { $0.last == satisfied }

            // When the default route goes: unsatisfied, notAvailable; when it comes back: satisfied
            try namespace.ip("route", "del", "default")
            reporter.reports.wait(until: "unsatisfied without a route") { $0.last == unsatisfied }
            try namespace.ip("route", "add", "default", "via", "10.9.0.2")
            reporter.reports.wait(until: "satisfied again") { $0.last == satisfied }

            // When the cable is out (the peer goes down: no carrier): unsatisfied, as Apple's code
            // that shows "offline" on `.unsatisfied` expects, with no interface in use; the
            // route and its gateway stay. When the carrier is back: satisfied
            try namespace.setCarrier(false)
            reporter.reports.wait(until: "unsatisfied without carrier") { $0.last == PathReport(status: "unsatisfied", gateways: ["10.9.0.2"]) }
            try namespace.setCarrier(true)
            reporter.reports.wait(until: "satisfied with the carrier back") { $0.last == satisfied }

            // When the link goes down: unsatisfied; up with its route again: satisfied
            try namespace.ip("link", "set", "v0", "down")
            reporter.reports.wait(until: "unsatisfied with the link down") { $0.last == unsatisfied }
            try namespace.ip("link", "set", "v0", "up")
            try namespace.ip("route", "add", "default", "via", "10.9.0.2")
            reporter.reports.wait(until: "satisfied after the link came back") { $0.last == satisfied }
            XCTAssertEqual(reporter.reports.all.first, satisfied, "the first path is the current one")
        }
    }

    func testAppleClient_asyncSequenceAndSystemConfigurationFunctions() throws {
        try withCompatNamespace { _ in
            // When: `for await path in NWPathMonitor()`, in a task
            let firsts = Recorder<PathReporter.FirstPath>()
            Task { if let first = await PathReporter.firstPathOfASequence() { firsts.append(first) } }
            // Then: the current path, and Apple's debugDescription shape
            firsts.wait(forCount: 1)
            XCTAssertEqual(firsts.all.first?.report, PathReport(status: "satisfied", gateways: ["10.9.0.2"]))
            // (`dns` when the host's resolv.conf names a server, which the namespace shares)
            let description = try XCTUnwrap(firsts.all.first?.description)
            XCTAssertTrue(description.hasPrefix("satisfied (interface: v0[wiredEthernet], ipv4, "), description)
            XCTAssertTrue(description.hasSuffix("link quality: good, gateways: 10.9.0.2:0)"), description)

            // The SystemConfiguration functions: a fixed type identifier, the last error as an error
            let (typeID, code, domain) = PathReporter.systemConfigurationErrors()
            XCTAssertEqual(typeID, SCNetworkReachabilityGetTypeID())
            XCTAssertEqual(code, kSCStatusInvalidArgument)
            XCTAssertEqual(domain, "com.apple.SystemConfiguration")
        }
    }

    /// Runs `body` with a fresh `nrx-sc-` namespace as `ReachabilityCompat.defaultNamespace`.
    private func withCompatNamespace(_ body: (PortingNamespace) throws -> Void) throws {
        try withPortingNamespace(prefix: "nrx-sc-") { namespace in
            let previous = ReachabilityCompat.defaultNamespace
            ReachabilityCompat.defaultNamespace = namespace.networkNamespace
            defer { ReachabilityCompat.defaultNamespace = previous }
            try body(namespace)
        }
    }
}

extension PathReport {
    /// A report over v0 (wired, 10 Gb/s full duplex: `good`), with Apple's only Linux reason.
    init(status: String, gateways: [String]) {
        self.status = status
        reason = "notAvailable"
        self.gateways = gateways
        quality = status == "satisfied" ? "good" : "unknown"
        usesWiredEthernet = status == "satisfied"
    }
}
