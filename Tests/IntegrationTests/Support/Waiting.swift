import Foundation
import NetworkReachability
import XCTest

/// The one timeout of the integration tests: how long any awaited event or polled condition may take.
let integrationTimeout: TimeInterval = 10

/// A condition that did not become true within `integrationTimeout`.
struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var seconds = integrationTimeout
    var description: String { "timed out after \(seconds) s waiting until \(what)" }
}

/// Polls `condition` until it holds or `integrationTimeout` passes (NIO's `assert(_:within:)`).
/// For kernel state that announces nothing the test could await, such as operstate.
///
/// - Parameter notBefore: how long the library is meant to take before the condition can hold (a
///   probe's interval), added to the timeout.
/// - Throws: `TimedOut` (after recording a failure), or what `condition` threw.
func waitUntil(_ what: @autoclosure () -> String, notBefore: TimeInterval = 0, file: StaticString = #filePath,
               line: UInt = #line, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(notBefore + integrationTimeout)
    while true {
        if try condition() { return }
        if Date() > deadline {
            let error = TimedOut(what: what(), seconds: notBefore + integrationTimeout)
            XCTFail("\(error)", file: file, line: line)
            throw error
        }
        usleep(5_000)  // poll interval, not a wait for an event
    }
}

/// Collects what callbacks deliver, from any thread, and lets the test wait for a condition on it
/// without sleeping: every append wakes the waiter.
///
/// `@unchecked Sendable`: `values` and `events` are only touched with `condition` locked.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [Value] = []

    func append(_ value: Value) {
        condition.lock()
        values.append(value)
        condition.broadcast()
        condition.unlock()
    }

    var all: [Value] {
        condition.lock()
        defer { condition.unlock() }
        return values
    }

    var count: Int { all.count }

    /// Waits until `predicate` holds for what was recorded, for at most `integrationTimeout`.
    ///
    /// - Returns: whether it held; on false a failure naming `what` and the recorded values is recorded.
    @discardableResult
    func wait(until what: String, file: StaticString = #filePath, line: UInt = #line,
              _ predicate: ([Value]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(integrationTimeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(values) {
            if !condition.wait(until: deadline) {
                if predicate(values) { return true }
                XCTFail("timed out after \(integrationTimeout) s waiting until \(what); recorded: \(values)", file: file, line: line)
                return false
            }
        }
        return true
    }

    /// Waits until at least `count` values were recorded.
    @discardableResult
    func wait(forCount count: Int, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        wait(until: "\(count) callbacks arrived", file: file, line: line) { $0.count >= count }
    }
}

extension Recorder where Value == ReachabilityFlags {
    /// Waits until the last recorded flags are `flags`.
    @discardableResult
    func wait(forLast flags: ReachabilityFlags, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        wait(until: "the last callback carries [\(flags.names.joined(separator: ","))]", file: file, line: line) {
            $0.last == flags
        }
    }
}

/// Readable names of flags, for assertion messages: `[reachable,isDirect]`.
func names(_ flags: ReachabilityFlags) -> String {
    "[\(flags.names.joined(separator: ","))]"
}

func names(_ sequence: [ReachabilityFlags]) -> String {
    sequence.map(names).joined(separator: " -> ")
}
