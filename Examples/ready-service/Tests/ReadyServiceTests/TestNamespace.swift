import Foundation
import XCTest

/// A throwaway network namespace, `nrx-it-PID-ready-N`, deleted on every exit path: the
/// repository's harness in miniature, since this package cannot import its test support.
struct TestNamespace {
    let name: String

    /// Runs `body` with a fresh namespace whose `lo` is up.
    /// - Throws: `XCTSkip` when not root or when `ip netns add` fails.
    static func with<Value>(_ tag: String, _ body: (TestNamespace) async throws -> Value) async throws -> Value {
        guard geteuid() == 0 else { throw XCTSkip("needs root to make a network namespace (running as euid \(geteuid()))") }
        let namespace = TestNamespace(name: "nrx-it-\(getpid())-ready-\(tag)")
        guard (try? run("netns", "add", namespace.name)) != nil else {
            throw XCTSkip("'ip netns add' failed: network namespaces are not available here")
        }
        do {
            try namespace.ip("link", "set", "lo", "up")
            let value = try await body(namespace)
            try run("netns", "del", namespace.name)
            return value
        } catch {
            _ = try? run("netns", "del", namespace.name)
            throw error
        }
    }

    /// `ip -n NAME ARGUMENTS...`.
    func ip(_ arguments: String...) throws {
        try Self.run(["-n", name] + arguments)
    }

    private static func run(_ arguments: String...) throws {
        try run(arguments)
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw CommandFailure(description: "ip \(arguments.joined(separator: " ")): \(message)")
        }
    }
}

struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}
