import Foundation
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Synchronization
import XCTest

/// A strong reference a callback can drop.
final class MonitorHolder: @unchecked Sendable {
    var monitor: PathMonitor?
}

final class WeakMonitorBox: @unchecked Sendable {
    weak var monitor: PathMonitor?

    init(_ monitor: PathMonitor) {
        self.monitor = monitor
    }
}

/// The books of the lifecycle tests: every context's retains and releases, every monitor's state
/// (closed when an unschedule or cancel of it returned), and what broke a promise.
///
/// Global, because C callbacks capture nothing: contexts are numbered, and the number is the
/// context's `info` pointer. Never call into a monitor with the lock held: a monitor's `deinit`
/// releases its context, which takes the lock.
enum LifecycleLedger {
    struct ContextRecord {
        var monitor: Int
        var retains = 0
        var releases = 0
    }

    struct MonitorRecord {
        var closed = false
        /// Its last reference was dropped and it is deallocated.
        var released = false
        var callbacks = 0
        /// What the next callback does to its own monitor.
        var inCallback: InCallback = .nothing
    }

    enum InCallback { case nothing, cancel, release }

    struct Books {
        var contexts: [Int: ContextRecord] = [:]
        var monitors: [Int: MonitorRecord] = [:]
        var violations: [String] = []
        var nextContext = 0
        /// Monitors whose only reference their callback drops.
        var kept: [Int: PathMonitor] = [:]
        var cancelledInCallback = 0
        var releasedInCallback = 0
        var callbacksAfterRelease = 0
    }

    static let books = Locked(Books())

    static func reset() {
        let old = books.withLock { books -> Books in
            defer { books = Books() }
            return books
        }
        withExtendedLifetime(old) {}
    }

    static var keptCount: Int { books.withLock { $0.kept.count } }

    static func register(serial: Int, inCallback: InCallback = .nothing) {
        books.withLock { $0.monitors[serial] = MonitorRecord(inCallback: inCallback) }
    }

    static func open(serial: Int) {
        books.withLock { $0.monitors[serial]?.closed = false }
    }

    static func close(serial: Int) {
        books.withLock { $0.monitors[serial]?.closed = true }
    }

    static func released(serial: Int) {
        books.withLock { $0.monitors[serial]?.released = true }
    }

    static func newContext(for serial: Int) -> PathMonitor.Context {
        let number = books.withLock { books -> Int in
            books.nextContext += 1
            books.contexts[books.nextContext] = ContextRecord(monitor: serial)
            return books.nextContext
        }
        return PathMonitor.Context(version: 0, info: UnsafeMutableRawPointer(bitPattern: number),
                                   retain: retain, release: release, copyDescription: nil)
    }

    static let retain: @convention(c) (UnsafeRawPointer) -> UnsafeRawPointer = { info in
        books.withLock { books in
            let number = Int(bitPattern: info)
            if books.contexts[number] == nil { books.violations.append("retain of unknown context \(number)") }
            books.contexts[number]?.retains += 1
        }
        return info
    }

    static let release: @convention(c) (UnsafeRawPointer) -> Void = { info in
        books.withLock { books in
            let number = Int(bitPattern: info)
            guard let record = books.contexts[number] else {
                books.violations.append("release of unknown context \(number)")
                return
            }
            if record.releases >= record.retains {
                books.violations.append("context \(number) of monitor \(record.monitor) released more often than retained")
            }
            books.contexts[number]?.releases += 1
        }
    }

    static let callback: PathMonitor.Callback = { monitorPointer, _, info in
        guard let info else {
            books.withLock { $0.violations.append("a callback without its info") }
            return
        }
        let number = Int(bitPattern: info)
        let (serial, action) = books.withLock { books -> (Int, InCallback) in
            guard let context = books.contexts[number] else {
                books.violations.append("a callback with unknown context \(number)")
                return (-1, .nothing)
            }
            if context.releases >= context.retains {
                books.violations.append("a callback with context \(number) after its release")
            }
            return (context.monitor, books.callbackStarted(context.monitor))
        }
        perform(action, serial: serial) {
            Unmanaged<PathMonitor>.fromOpaque(UnsafeRawPointer(monitorPointer)).takeUnretainedValue()
        }
    }

    /// A closure handler's callback.
    static func closureCallback(serial: Int, monitor: () -> PathMonitor?) {
        let action = books.withLock { $0.callbackStarted(serial) }
        perform(action, serial: serial) { monitor()! }
    }

    private static func perform(_ action: InCallback, serial: Int, monitor: () -> PathMonitor) {
        switch action {
        case .nothing:
            break
        case .cancel:
            monitor().cancel()
            books.withLock {
                $0.monitors[serial]?.closed = true
                $0.cancelledInCallback += 1
            }
        case .release:
            let last = books.withLock { books -> PathMonitor? in
                books.releasedInCallback += 1
                return books.kept.removeValue(forKey: serial)
            }
            // The last strong reference outside the library goes here, outside the lock
            withExtendedLifetime(last) {}
        }
    }

    /// Exercises one monitor in one of eight patterns. Runs on a worker thread.
    static func exercise(_ monitor: PathMonitor, serial: Int, pattern: Int, queue: DispatchQueue, other: DispatchQueue,
                         kept: inout [(serial: Int, monitor: PathMonitor)]) {
        switch pattern {
        case 0:
            // Schedule, unschedule, schedule elsewhere, cancel, release
            register(serial: serial)
            var context = newContext(for: serial)
            monitor.setCallback(callback, context: &context)
            monitor.setDispatchQueue(queue)
            monitor.unschedule()
            close(serial: serial)
            open(serial: serial)
            monitor.setDispatchQueue(other)
            monitor.cancel()
            close(serial: serial)
        case 1:
            // A closure handler and a path handler; released while scheduled
            register(serial: serial)
            weak let weakMonitor = monitor
            monitor.setCallback { _ in closureCallback(serial: serial) { weakMonitor } }
            monitor.pathUpdateHandler = { _ in }
            monitor.start(queue: queue)
        case 2:
            // Cancels itself from inside its first callback; kept alive by the test meanwhile
            register(serial: serial, inCallback: .cancel)
            var context = newContext(for: serial)
            monitor.setCallback(callback, context: &context)
            monitor.setDispatchQueue(queue)
            kept.append((serial, monitor))
        case 3:
            // Its callback drops the last reference
            register(serial: serial, inCallback: .release)
            var context = newContext(for: serial)
            monitor.setCallback(callback, context: &context)
            books.withLock { $0.kept[serial] = monitor }
            monitor.setDispatchQueue(queue)
        case 4:
            // Contexts replaced while callbacks run, on a concurrent queue; then cleared
            register(serial: serial)
            var context = newContext(for: serial)
            monitor.setCallback(callback, context: &context)
            monitor.setDispatchQueue(other)
            for _ in 0..<5 {
                var next = newContext(for: serial)
                monitor.setCallback(callback, context: &next)
            }
            monitor.setCallback(nil, context: nil)
        case 5:
            // Scheduled and unscheduled five times on alternating queues
            register(serial: serial)
            var context = newContext(for: serial)
            monitor.setCallback(callback, context: &context)
            for round in 0..<5 {
                open(serial: serial)
                monitor.setDispatchQueue(round % 2 == 0 ? queue : other)
                if round % 2 == 0 { monitor.unschedule() } else { monitor.setDispatchQueue(nil) }
                close(serial: serial)
            }
        case 6:
            // Scheduled, context replaced once, released while scheduled
            register(serial: serial)
            var context = newContext(for: serial)
            monitor.setCallback(callback, context: &context)
            monitor.setDispatchQueue(other)
            var next = newContext(for: serial)
            monitor.setCallback(callback, context: &next)
        default:
            // Long-lived: scheduled on a concurrent queue through the whole run (unscheduled by the
            // test at the end), after a flags() read and a context replaced before scheduling
            register(serial: serial)
            var context = newContext(for: serial)
            monitor.setCallback(callback, context: &context)
            _ = try? monitor.flags()
            var next = newContext(for: serial)
            monitor.setCallback(callback, context: &next)
            monitor.setDispatchQueue(other)
            kept.append((serial, monitor))
        }
    }

    struct Report {
        var violations: [String]
        var unbalanced: [String]
        var monitors: Int
        var contexts: Int
        var callbacks: Int
        var cancelledInCallback: Int
        var releasedInCallback: Int
        var callbacksAfterRelease: Int
    }

    static func report() -> Report {
        books.withLock { books in
            Report(
                violations: books.violations,
                unbalanced: books.contexts.filter { $0.value.retains != 1 || $0.value.releases != 1 }.sorted { $0.key < $1.key }
                    .map { "context \($0.key) of monitor \($0.value.monitor): \($0.value.retains) retains, \($0.value.releases) releases" },
                monitors: books.monitors.count,
                contexts: books.contexts.count,
                callbacks: books.monitors.values.reduce(0) { $0 + $1.callbacks },
                cancelledInCallback: books.cancelledInCallback,
                releasedInCallback: books.releasedInCallback,
                callbacksAfterRelease: books.callbacksAfterRelease
            )
        }
    }
}

extension LifecycleLedger.Books {
    /// Books a callback of `serial` and checks it came while its monitor was open.
    /// - Returns: what the callback is to do to its monitor (once).
    mutating func callbackStarted(_ serial: Int) -> LifecycleLedger.InCallback {
        guard var record = monitors[serial] else {
            violations.append("a callback of unknown monitor \(serial)")
            return .nothing
        }
        if record.closed {
            violations.append("a callback of monitor \(serial) after its unschedule or cancel returned")
        }
        if record.released { callbacksAfterRelease += 1 }
        record.callbacks += 1
        let action = record.inCallback
        record.inCallback = .nothing
        monitors[serial] = record
        return action
    }
}
