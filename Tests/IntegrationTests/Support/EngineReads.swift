import Foundation
@testable import NetworkReachabilityCore
@testable import ReachabilityEngine

/// Waits until `engine` has read no kernel event for 300 ms: what the kernel does on its own after
/// a setup (linkwatch fires up to a second after a carrier change) has arrived.
func waitUntilQuiet(_ engine: EngineHandle) throws {
    var last = (events: -1, since: Date())
    try waitUntil("the engine saw no kernel event for 300 ms") {
        let events = try readQueued(engine).kernelEvents
        if events != last.events { last = (events, Date()) }
        return Date().timeIntervalSince(last.since) >= 0.3
    }
}

/// Has `engine` read what its socket holds, and returns its counters then. The kernel queues (or
/// drops) a message for the socket before the command that caused it returns: after `ip` returned,
/// this has read what it sent.
func readQueued(_ engine: EngineHandle) throws -> EngineCounters {
    guard let counters = engine.onLoop({ engine -> EngineCounters in
        engine.absorbForRead()
        return engine.report.counters
    }) else { throw EngineGone() }
    return counters
}

struct EngineGone: Error, CustomStringConvertible {
    var description: String { "the engine's loop has stopped" }
}
