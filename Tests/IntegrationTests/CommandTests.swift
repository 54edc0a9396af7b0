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

/// `check`, `watch` and bad input.
final class CommandTests: CommandTestCase {
    // MARK: - check

    func testCheckJSONOfAReachableAddress() throws {
        let result = try reachability(["check", "--json", "--netns", namespace, "8.8.8.8"])
        XCTAssertEqual(result.status, 0, "reachable exits 0; stderr: \(result.stderr)")
        XCTAssertEqual(result.stderr, "")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 2, "one record and its newline: \(result.stdout)")
        let line = String(lines[0])
        let record = try parseRecord(line)

        assertKeyOrder(line, ["time", "target", "flags", "flagsRaw", "status", "path"])
        assertKeyOrder(line, ["status", "unsatisfiedReason", "interface", "gateways", "availableInterfaces",
                              "isExpensive", "isConstrained", "supportsIPv4", "supportsIPv6", "supportsDNS"])
        XCTAssertEqual(Set(record.keys), ["time", "target", "flags", "flagsRaw", "status", "path"],
                       "no 'addresses' for an address target")
        let time = try XCTUnwrap(record["time"] as? String)
        XCTAssertNotNil(time.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$"#, options: .regularExpression),
                        "RFC 3339 UTC with microseconds: \(time)")
        XCTAssertEqual(record["target"] as? String, "8.8.8.8")
        XCTAssertEqual(record["flags"] as? [String], ["reachable"])
        XCTAssertEqual(record["flagsRaw"] as? Int, 2)
        XCTAssertEqual(record["status"] as? String, "reachableViaWiFi")

        let path = try XCTUnwrap(record["path"] as? [String: Any])
        XCTAssertEqual(path["status"] as? String, "satisfied")
        XCTAssertTrue(path["unsatisfiedReason"] is NSNull)
        let interface = try XCTUnwrap(path["interface"] as? [String: Any])
        XCTAssertEqual(interface["name"] as? String, "v0")
        XCTAssertEqual(interface["type"] as? String, "wiredEthernet")
        XCTAssertNotNil(interface["index"] as? Int)
        XCTAssertEqual(path["gateways"] as? [String], ["10.9.0.2"])
        let available = try XCTUnwrap(path["availableInterfaces"] as? [[String: Any]])
        XCTAssertEqual(available.first?["name"] as? String, "v0", "the route's interface comes first")
        XCTAssertEqual(path["isExpensive"] as? Bool, false)
        XCTAssertEqual(path["isConstrained"] as? Bool, false)
        XCTAssertEqual(path["supportsIPv4"] as? Bool, true)
        XCTAssertEqual(path["supportsIPv6"] as? Bool, false)
        XCTAssertNotNil(path["supportsDNS"] as? Bool)
    }

    func testCheckJSONOfAnUnreachableAddressExitsOne() throws {
        let result = try reachability(["check", "--json", "--netns", namespace, "2001:db8::1"])
        XCTAssertEqual(result.status, 1, "not reachable exits 1; stderr: \(result.stderr)")
        XCTAssertEqual(result.stderr, "")
        let record = try parseRecord(result.stdout)
        XCTAssertEqual(record["target"] as? String, "2001:db8::1")
        XCTAssertEqual(record["flags"] as? [String], [])
        XCTAssertEqual(record["flagsRaw"] as? Int, 0)
        XCTAssertEqual(record["status"] as? String, "notReachable")
        let path = try XCTUnwrap(record["path"] as? [String: Any])
        XCTAssertEqual(path["status"] as? String, "unsatisfied")
        XCTAssertEqual(path["unsatisfiedReason"] as? String, "noRoute")
        XCTAssertTrue(path["interface"] is NSNull, "no interface: null, not absent")
        XCTAssertEqual(path["gateways"] as? [String], [])
    }

    func testCheckOfTheGeneralPathPrintsAStar() throws {
        let result = try reachability(["check", "--json", "--netns", namespace])
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        let record = try parseRecord(result.stdout)
        XCTAssertEqual(record["target"] as? String, "*")
        XCTAssertEqual(record["status"] as? String, "reachableViaWiFi")
    }

    func testCheckHumanOutputIsOneLine() throws {
        let result = try reachability(["check", "--netns", namespace, "8.8.8.8"])
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        XCTAssertFalse(result.stdout.contains("\u{1B}"), "no colour when stdout is a pipe")
        let fields = result.stdout.split(whereSeparator: \.isWhitespace)
        XCTAssertEqual(fields.count, 7, "time, target, status, flags (two words), interface, gateway: \(result.stdout)")
        XCTAssertEqual(fields.dropFirst().map(String.init), ["8.8.8.8", "reachableViaWiFi", "-R", "-------", "v0", "10.9.0.2"])
    }

    // MARK: - bad input

    func testBadInputGetsOneLineOnStderrAndAnotherStatus() throws {
        let cases: [(arguments: [String], mentions: String)] = [
            (["check", "--netns", namespace, "10.0.0.300"], "10.0.0.300"),
            (["check", "--json", "--netns", namespace, "not an address"], "not an address"),
            (["check", "--netns", "nrx-cmd-missing-\(getpid())", "8.8.8.8"], "nrx-cmd-missing-\(getpid())"),
            (["check", "--no-such-option", "8.8.8.8"], "--no-such-option"),
            (["watch", "--netns", namespace, "8.8.8.8", "fe80::1%"], "fe80::1%"),
            (["wait", "--netns", namespace, "10.0.0.300"], "10.0.0.300"),
            (["wait", "--timeout", "0", "--netns", namespace, "8.8.8.8"], "--timeout"),
            (["wait", "--netns", namespace, "8.8.8.8", "10.0.0.300"], "10.0.0.300"),
            (["wait", "--any", "--all", "--netns", namespace, "8.8.8.8"], "--all"),
            (["interfaces", "--netns", "nrx-cmd-missing-\(getpid())"], "nrx-cmd-missing-\(getpid())"),
            (["interfaces", "--netns", namespace, "extra"], "extra"),
            (["demo", "--duration", "0"], "--duration"),
            (["demo", "--netns", namespace], "--netns"),
        ]
        for (arguments, mentions) in cases {
            let result = try reachability(arguments)
            XCTAssertFalse([0, 1].contains(result.status), "\(arguments) exited \(result.status)")
            XCTAssertEqual(result.stdout, "", "\(arguments) printed no record")
            XCTAssertTrue(result.stderr.hasSuffix("\n"), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(arguments): one line: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(mentions), "\(arguments) names the problem: \(result.stderr)")
        }
    }

    // MARK: - watch

    func testWatchPrintsTheInitialStateThenAChange() throws {
        let watch = try Self.start(Self.binaryPath(), ["watch", "--json", "--count", "2", "--netns", namespace, "8.8.8.8"])
        defer { watch.terminateIfRunning() }

        let first = try XCTUnwrap(watch.stdout.nextLine(before: .now() + Self.deadline), "the initial record")
        let initial = try parseRecord(first)
        XCTAssertEqual(initial["target"] as? String, "8.8.8.8")
        XCTAssertEqual(initial["status"] as? String, "reachableViaWiFi")

        try ipInNamespace("link", "set", "v1", "down")  // v0 loses its carrier

        let second = try XCTUnwrap(watch.stdout.nextLine(before: .now() + Self.deadline), "a record after the change")
        let changed = try parseRecord(second)
        XCTAssertEqual(changed["target"] as? String, "8.8.8.8")
        XCTAssertEqual(changed["status"] as? String, "notReachable", "first: \(first)\nsecond: \(second)")
        XCTAssertEqual(changed["flags"] as? [String], ["reachable", "connectionRequired"], second)
        let path = try XCTUnwrap(changed["path"] as? [String: Any])
        XCTAssertEqual(path["status"] as? String, "requiresConnection", second)
        XCTAssertEqual(path["unsatisfiedReason"] as? String, "linkDown", second)

        let status = try XCTUnwrap(watch.waitForExit(before: .now() + Self.deadline), "--count 2 ends the watch")
        XCTAssertEqual(status, 0)
        XCTAssertNil(watch.stdout.nextLine(before: .now() + Self.deadline), "nothing after the second record")
    }

    func testWatchStopsOnSIGTERMAndTimeoutWithStatusZero() throws {
        let watch = try Self.start(Self.binaryPath(), ["watch", "--json", "--netns", namespace])
        defer { watch.terminateIfRunning() }
        let first = try XCTUnwrap(watch.stdout.nextLine(before: .now() + Self.deadline), "the initial record")
        XCTAssertEqual(try parseRecord(first)["target"] as? String, "*")
        watch.process.terminate()  // SIGTERM
        XCTAssertEqual(watch.waitForExit(before: .now() + Self.deadline), 0)

        let timed = try Self.start(Self.binaryPath(), ["watch", "--timeout", "0.5", "--netns", namespace, "8.8.8.8", "::"])
        defer { timed.terminateIfRunning() }
        XCTAssertEqual(timed.waitForExit(before: .now() + Self.deadline), 0, "--timeout ends the watch")
        var lines: [String] = []
        while let line = timed.stdout.nextLine(before: .now() + Self.deadline) { lines.append(line) }
        XCTAssertEqual(lines.count, 2, "one initial record per target: \(lines)")
    }
}
