import Foundation
import NetworkReachability
import Synchronization
import XCTest

// Support for the porting-layer tests (ReachabilityManagerTests, CompatTests): a throwaway network
// namespace, a thread-safe recorder whose expectations wait for what was recorded, and the one
// timeout they share.

enum PortingTests {
    /// How long any wait of these tests may take.
    static let timeout: TimeInterval = 10
}

/// A network namespace made for one test: `ip netns add NAME` with a veth pair v0/v1 both inside,
/// 10.9.0.1/24 on v0, the default route via 10.9.0.2, and lo up. Its name holds the test process's
/// id. Use it through `withPortingNamespace`, which deletes it on every exit path.
struct PortingNamespace {
    let name: String

    private static let counter = Atomic<Int>(0)

    /// The `ip` command, or nil.
    private static let ipPath: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Makes the namespace; `online: false` leaves v0 without carrier (v1 down).
    fileprivate static func make(prefix: String, online: Bool) throws -> PortingNamespace {
        guard geteuid() == 0 else {
            throw XCTSkip("needs root: the test makes a network namespace with 'ip netns add' (run the tests as root, e.g. in the project's container)")
        }
        guard ipPath != nil else {
            throw XCTSkip("needs the 'ip' command (iproute2) to make a network namespace")
        }
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let namespace = PortingNamespace(name: "\(prefix)\(getpid())-\(number)")
        try ip(["netns", "add", namespace.name])
        do {
            try namespace.ip("link", "set", "lo", "up")
            try namespace.ip("link", "add", "v0", "type", "veth", "peer", "name", "v1")
            try namespace.ip("addr", "add", "10.9.0.1/24", "dev", "v0")
            try namespace.ip("link", "set", "v0", "up")
            try namespace.ip("link", "set", "v1", "up")
            try namespace.ip("route", "add", "default", "via", "10.9.0.2")
            if !online { try namespace.setCarrier(false) }
        } catch {
            namespace.delete()
            throw error
        }
        return namespace
    }

    /// Deletes the namespace; failures are ignored (it may be gone already).
    fileprivate func delete() {
        _ = try? Self.ip(["netns", "del", name])
    }

    /// Runs `ip -n NAME arguments...`.
    func ip(_ arguments: String...) throws {
        try Self.ip(["-n", name] + arguments)
    }

    /// Takes v0's carrier away (v1 down) or gives it back (v1 up).
    func setCarrier(_ on: Bool) throws {
        try ip("link", "set", "v1", on ? "up" : "down")
    }

    /// The namespace, as monitors name it.
    var networkNamespace: NetworkNamespace { .named(name) }

    /// Runs `ip` with `arguments`; throws with its standard error when it fails.
    static func ip(_ arguments: [String]) throws {
        guard let ipPath else { throw XCTSkip("needs the 'ip' command (iproute2)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ipPath)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw PortingFixtureError(message: "ip \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(text)")
        }
    }
}

struct PortingFixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Runs `body` with a fresh namespace (see `PortingNamespace`), deleted when `body` returns or throws.
///
/// - Parameters:
///   - prefix: `nrx-af-` or `nrx-sc-`; the process id and a counter follow.
///   - online: whether v0 has carrier at the start.
func withPortingNamespace<T>(prefix: String, online: Bool = true, _ body: (PortingNamespace) throws -> T) throws -> T {
    let namespace = try PortingNamespace.make(prefix: prefix, online: online)
    defer { namespace.delete() }
    return try body(namespace)
}

/// Values recorded from any thread, in order; expectations are fulfilled once the values satisfy a condition.
///
/// `@unchecked Sendable`: `state` is touched only with `lock` held. An `NSLock` (a pthread mutex),
/// not `Synchronization.Mutex`, whose futex the thread sanitizer cannot see.
final class PortingRecorder<Value: Sendable>: @unchecked Sendable {
    private struct Waiter {
        var condition: @Sendable ([Value]) -> Bool
        var expectation: XCTestExpectation
    }

    private struct State {
        var values: [Value] = []
        var waiters: [Waiter] = []
    }

    private let lock = NSLock()
    private var unsafeState = State()

    init() {}

    private func withLock<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&unsafeState)
    }

    /// Everything recorded so far.
    var values: [Value] { withLock { $0.values } }

    func append(_ value: Value) {
        let ready = withLock { state -> [XCTestExpectation] in
            state.values.append(value)
            let values = state.values
            let ready = state.waiters.filter { $0.condition(values) }.map(\.expectation)
            state.waiters.removeAll { $0.condition(values) }
            return ready
        }
        ready.forEach { $0.fulfill() }
    }

    /// An expectation fulfilled once `condition` holds for the recorded values (at once if it already does).
    func expectation(_ description: String, file: StaticString = #filePath, line: Int = #line,
                     until condition: @escaping @Sendable ([Value]) -> Bool) -> XCTestExpectation {
        let expectation = XCTestExpectation(description: description, file: file, line: line)
        let holds = withLock { state -> Bool in
            if condition(state.values) { return true }
            state.waiters.append(Waiter(condition: condition, expectation: expectation))
            return false
        }
        if holds { expectation.fulfill() }
        return expectation
    }

    /// An expectation fulfilled once `count` values are recorded.
    func expectation(count: Int, file: StaticString = #filePath, line: Int = #line) -> XCTestExpectation {
        expectation("\(count) values recorded", file: file, line: line) { $0.count >= count }
    }
}
