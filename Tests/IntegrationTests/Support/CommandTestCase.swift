import Dispatch
import Foundation
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Parses one JSON record line of the command into an object.
func parseRecord(_ line: String, file: StaticString = #filePath, line sourceLine: UInt = #line) throws -> [String: Any] {
    let trimmed = line.hasSuffix("\n") ? String(line.dropLast()) : line
    XCTAssertFalse(trimmed.contains("\n"), "one object per line: \(line)", file: file, line: sourceLine)
    let object = try JSONSerialization.jsonObject(with: Data(trimmed.utf8))
    return try XCTUnwrap(object as? [String: Any], "a JSON object: \(line)", file: file, line: sourceLine)
}

/// The base of the end-to-end tests of the `reachability` executable (`Command*Tests`): they run
/// the built binary against a network namespace of their own and check its output contract
/// (cli.md) and exit statuses.
///
/// The namespace, `nrx-cmd-PID-N`, holds `v0` (10.9.0.1/24) and its veth peer `v1` (no address),
/// both up, and an IPv4 default route via 10.9.0.2; no IPv6 route. It is deleted after each test,
/// whatever happened. The tests need root (to make the namespace) and skip otherwise.
class CommandTestCase: XCTestCase {
    /// How long one run of the binary, or one awaited line, may take on a loaded machine before the test fails.
    static let deadline: TimeInterval = 30

    /// The namespace of the current test, `nrx-cmd-PID-N`; empty when `makesNamespace` is false.
    var namespace = ""

    /// Whether each test gets the namespace; a subclass whose tests need none says false.
    class var makesNamespace: Bool { true }

    private static let namespaceCounter = Mutex(0)

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard getuid() == 0 else {
            throw XCTSkip("the command's tests make network namespaces with 'ip netns add', which needs root")
        }
        guard Self.makesNamespace else { return }
        let number = Self.namespaceCounter.withLock { counter in
            counter += 1
            return counter
        }
        namespace = "nrx-cmd-\(getpid())-\(number)"
        let add = try Self.run(Self.ipPath, ["netns", "add", namespace])
        guard add.status == 0 else {
            throw XCTSkip("'ip netns add \(namespace)' failed, so no namespace to test in: \(add.stderr)")
        }
        let name = namespace
        addTeardownBlock {
            _ = try? Self.run(Self.ipPath, ["netns", "del", name])
        }
        try ipInNamespace("link", "set", "lo", "up")
        try ipInNamespace("link", "add", "v0", "type", "veth", "peer", "name", "v1")
        // No IPv6 link-local addresses: they come and go on their own (DAD) and would add records
        // to a watch; so v1 holds no address and is never one of v0's available interfaces.
        try ipInNamespace("link", "set", "v0", "addrgenmode", "none")
        try ipInNamespace("link", "set", "v1", "addrgenmode", "none")
        try ipInNamespace("addr", "add", "10.9.0.1/24", "dev", "v0")
        try ipInNamespace("link", "set", "v0", "up")
        try ipInNamespace("link", "set", "v1", "up")
        try ipInNamespace("route", "add", "default", "via", "10.9.0.2")
    }

    // MARK: - Helpers

    /// Runs `ip -n NAMESPACE ARGUMENTS`, failing the test with ip's message when it fails.
    func ipInNamespace(_ arguments: String...) throws {
        let result = try Self.run(Self.ipPath, ["-n", namespace] + arguments)
        guard result.status == 0 else {
            throw Failure("ip -n \(namespace) \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
    }

    /// Runs the `reachability` binary to its end.
    func reachability(_ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
        try Self.run(Self.binaryPath(), arguments, environment: environment)
    }

    /// Runs `reachability check --netns NAMESPACE ARGUMENTS` in the test's namespace to its end.
    func check(_ arguments: String...) throws -> Finished {
        try reachability(["check", "--netns", namespace] + arguments)
    }

    /// Starts `reachability watch --netns NAMESPACE ARGUMENTS` in the test's namespace.
    func startWatch(_ arguments: String...) throws -> Running {
        try startReachability(["watch", "--netns", namespace] + arguments)
    }

    /// Checks that the quoted keys first appear in `text` in the given order.
    func assertKeyOrder(_ text: String, _ keys: [String], file: StaticString = #filePath, line: UInt = #line) {
        var searchStart = text.startIndex
        for key in keys {
            guard let range = text.range(of: "\"\(key)\":", range: searchStart..<text.endIndex) else {
                XCTFail("key '\(key)' missing or out of order in \(text)", file: file, line: line)
                return
            }
            searchStart = range.upperBound
        }
    }

    /// The `ip` tool.
    static let ipPath: String = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/ip"

    /// The built `reachability`: beside the test bundle in the products directory, else under
    /// the package's `.build/debug`.
    static func binaryPath() throws -> String {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            bundleDirectory.appendingPathComponent("reachability").path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("reachability").path,
            packageRoot.appendingPathComponent(".build/debug/reachability").path,
        ]
        return try XCTUnwrap(candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
                             "no built 'reachability' in \(candidates); run 'swift build' first")
    }

    // MARK: - Running processes

    /// A process that has finished, with everything it wrote.
    struct Finished {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `executable` to its end, failing when it takes longer than `deadline`.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
        let running = try start(executable, arguments, environment: environment)
        defer { running.terminateIfRunning() }
        guard let status = running.waitForExit(before: .now() + deadline) else {
            throw Failure("\(executable) \(arguments) did not finish within \(deadline) s")
        }
        return Finished(status: status, stdout: running.stdout.remainder(before: .now() + deadline),
                        stderr: running.stderr.remainder(before: .now() + deadline))
    }

    /// Starts `executable` with its output on pipes that are read as it writes.
    ///
    /// - Parameter environment: added to the test's environment, from which `NO_COLOR` is removed.
    static func start(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = commandEnvironment(environment)
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        return Running(process: process, exited: exited,
                       stdout: LineStream(stdout.fileHandleForReading), stderr: LineStream(stderr.fileHandleForReading))
    }

    /// The test's environment without `NO_COLOR`, with `overrides` added.
    static func commandEnvironment(_ overrides: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment.merge(overrides) { $1 }
        return environment
    }

    /// Starts the built `reachability` with its output on pipes.
    func startReachability(_ arguments: [String], environment: [String: String] = [:]) throws -> Running {
        try Self.start(Self.binaryPath(), arguments, environment: environment)
    }

    /// The network namespaces `ip netns list` shows, by name.
    static func listedNamespaces() throws -> Set<String> {
        let listed = try run(ipPath, ["netns", "list"])
        return Set(listed.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
    }

    /// A started process and its output streams.
    struct Running {
        let process: Process
        let exited: DispatchSemaphore
        let stdout: LineStream
        let stderr: LineStream

        /// The exit status, or nil when the process is still running at `deadline`.
        func waitForExit(before deadline: DispatchTime) -> Int32? {
            guard exited.wait(timeout: deadline) == .success else { return nil }
            exited.signal()  // later waits return at once
            return process.terminationStatus
        }

        func terminateIfRunning() {
            if process.isRunning { process.terminate() }
        }
    }

    /// The output of a pipe, read on a thread of its own as it arrives, handed out line by line.
    final class LineStream: Sendable {
        private struct State {
            var buffer = Data()
            var isClosed = false
        }

        private let state = Mutex(State())
        /// Signalled each time data arrives or the pipe closes.
        private let changed = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            let thread = Thread { [self] in
                while true {
                    let data = handle.availableData
                    state.withLock { state in
                        if data.isEmpty { state.isClosed = true } else { state.buffer.append(data) }
                    }
                    changed.signal()
                    if data.isEmpty { return }
                }
            }
            thread.start()
        }

        /// The next whole line without its newline, or nil when none arrived by `deadline` or the pipe closed.
        func nextLine(before deadline: DispatchTime) -> String? {
            while true {
                let (line, isClosed) = state.withLock { state -> (String?, Bool) in
                    if let newline = state.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: state.buffer[state.buffer.startIndex..<newline], as: UTF8.self)
                        state.buffer.removeSubrange(state.buffer.startIndex...newline)
                        return (line, false)
                    }
                    return (nil, state.isClosed)
                }
                if let line { return line }
                if isClosed || changed.wait(timeout: deadline) == .timedOut { return nil }
            }
        }

        /// Everything not yet handed out, once the pipe closed (or what arrived by `deadline`).
        func remainder(before deadline: DispatchTime) -> String {
            while true {
                let closed = state.withLock { $0.isClosed }
                if closed || changed.wait(timeout: deadline) == .timedOut { break }
            }
            return state.withLock { state in
                defer { state.buffer.removeAll() }
                return String(decoding: state.buffer, as: UTF8.self)
            }
        }
    }

    /// A failure of the test machinery, with what went wrong.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
