import Foundation
import Synchronization
import XCTest

/// The programs in Examples/, run inside a namespace (`ip netns exec`) whose link and default route
/// change: they print the statuses AFNetworking would print.
final class ExamplesCompatTests: XCTestCase {
    private let timeout = PortingTests.timeout

    /// An example program running in a namespace, its standard output split into lines.
    private final class RunningExample {
        let process = Process()
        let lines = PortingRecorder<String>()
        let exited = XCTestExpectation(description: "example exited")
        private let pending = LineBuffer()

        init(_ name: String, _ arguments: [String], in namespace: PortingNamespace) throws {
            // The examples are built next to the test bundle.
            let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            let binary = directory.appendingPathComponent(name).path
            guard FileManager.default.isExecutableFile(atPath: binary) else {
                throw XCTSkip("\(binary) is not built: run 'swift build' first")
            }
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["ip", "netns", "exec", namespace.name, binary] + arguments
            let output = Pipe()
            process.standardOutput = output
            let lines = self.lines
            let pending = self.pending
            output.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                if data.isEmpty {
                    handle.readabilityHandler = nil
                    return
                }
                pending.add(data).forEach(lines.append)
            }
            let exited = self.exited
            process.terminationHandler = { _ in exited.fulfill() }
            try process.run()
        }

        deinit {
            if process.isRunning { process.terminate() }
        }
    }

    /// Bytes read so far, cut into complete lines.
    private final class LineBuffer: Sendable {
        private let partial = Mutex("")

        /// Adds `data`. - Returns: the lines it completed.
        func add(_ data: Data) -> [String] {
            partial.withLock { text in
                text += String(decoding: data, as: UTF8.self)
                var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                text = parts.removeLast()
                return parts
            }
        }
    }

    func testSCMonitor_printsEachChangeOfTheZeroAddress_andExitsAfterN() throws {
        try withPortingNamespace(prefix: "nrx-sc-") { namespace in
            let example = try RunningExample("sc-monitor", ["--updates", "3", "--timeout", "30"], in: namespace)
            wait(for: [example.lines.expectation(count: 1)], timeout: timeout)
            try namespace.setCarrier(false)
            wait(for: [example.lines.expectation(count: 2)], timeout: timeout)
            try namespace.setCarrier(true)
            wait(for: [example.exited], timeout: timeout)
            XCTAssertEqual(example.process.terminationStatus, 0)
            XCTAssertEqual(example.lines.values, [
                "Reachability: Reachable via WiFi (flags 0x00000002)",
                "Reachability: Not Reachable (flags 0x00000006)",
                "Reachability: Reachable via WiFi (flags 0x00000002)",
            ])
        }
    }

    func testAFManager_printsBlockThenNotification_withoutRepeatingAStatus() throws {
        try withPortingNamespace(prefix: "nrx-af-") { namespace in
            let example = try RunningExample("af-manager", ["--updates", "3", "--timeout", "30"], in: namespace)
            wait(for: [example.lines.expectation(count: 2)], timeout: timeout)
            try namespace.setCarrier(false)
            wait(for: [example.lines.expectation(count: 4)], timeout: timeout)
            // Flags change (no route at all) but the status stays "Not Reachable": nothing printed
            try namespace.ip("route", "del", "default")
            try namespace.setCarrier(true)
            try namespace.ip("route", "add", "default", "via", "10.9.0.2")
            wait(for: [example.exited], timeout: timeout)
            XCTAssertEqual(example.process.terminationStatus, 0)
            XCTAssertEqual(example.lines.values, [
                "Reachability: Reachable via WiFi", "Notification: Reachable via WiFi",
                "Reachability: Not Reachable", "Notification: Not Reachable",
                "Reachability: Reachable via WiFi", "Notification: Reachable via WiFi",
            ])
        }
    }

    func testNWMonitor_printsThePathStatus() throws {
        try withPortingNamespace(prefix: "nrx-sc-") { namespace in
            let example = try RunningExample("nw-monitor", ["--timeout", "30"], in: namespace)
            wait(for: [example.lines.expectation(count: 1)], timeout: timeout)
            let first = try XCTUnwrap(example.lines.values.first, "nw-monitor printed nothing")
            XCTAssertTrue(first.hasPrefix("Path: satisfied, Reachable via WiFi, interfaces: v0"), first)
            try namespace.setCarrier(false)
            // A cable out is unsatisfied, as Apple's code that shows "offline" on `.unsatisfied` expects
            wait(for: [example.lines.expectation("unsatisfied without carrier") {
                $0.count >= 2 && $0.last?.hasPrefix("Path: unsatisfied, Not Reachable, interfaces: none") == true
            }], timeout: timeout)
            try namespace.ip("route", "del", "default")
            wait(for: [example.lines.expectation("unsatisfied without a route") {
                $0.count >= 3 && $0.last?.hasPrefix("Path: unsatisfied, Not Reachable") == true
            }], timeout: timeout)
            example.process.terminate()
            wait(for: [example.exited], timeout: timeout)
        }
    }
}
