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

/// The `info` of a C-style callback in these tests: it records the flags delivered, counts the
/// context's retains and releases, and can hold the first callback in flight until the test lets it go.
///
/// Probes live as long as the test process: a library that releases a context too often must fail
/// a test, not crash the run by freeing the probe under it.
///
/// `@unchecked Sendable`: the counters and the in-flight observations are guarded by `lock`; the
/// semaphores and the recorder are thread-safe.
final class CallbackProbe: @unchecked Sendable {
    private static let everyProbe = Mutex<[CallbackProbe]>([])

    let flags = Recorder<ReachabilityFlags>()
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var retainCount = 0
    private var releaseCount = 0
    private var holds = false
    private var observedInFlight: (releases: Int, target: String)?

    /// - Parameter holdFirstCallback: the first callback signals `entered`, then waits for `proceed`.
    init(holdFirstCallback: Bool = false) {
        holds = holdFirstCallback
        Self.everyProbe.withLock { $0.append(self) }
    }

    var retains: Int { lock.withLock { retainCount } }
    var releases: Int { lock.withLock { releaseCount } }
    /// What the held callback saw after it was let go: the releases so far and the monitor's target.
    var inFlight: (releases: Int, target: String)? { lock.withLock { observedInFlight } }

    /// A context whose `retain` and `release` count on this probe and really retain and release it.
    func context() -> PathMonitor.Context {
        PathMonitor.Context(version: 0, info: Unmanaged.passUnretained(self).toOpaque(),
                            retain: Self.retain, release: Self.release, copyDescription: nil)
    }

    static var retain: @convention(c) (UnsafeRawPointer) -> UnsafeRawPointer {
        { raw in
            let probe = Unmanaged<CallbackProbe>.fromOpaque(raw)
            probe.takeUnretainedValue().lock.withLock { probe.takeUnretainedValue().retainCount += 1 }
            _ = probe.retain()
            return raw
        }
    }

    static var release: @convention(c) (UnsafeRawPointer) -> Void {
        { raw in
            let probe = Unmanaged<CallbackProbe>.fromOpaque(raw)
            let balanced = probe.takeUnretainedValue().lock.withLock { () -> Bool in
                let object = probe.takeUnretainedValue()
                object.releaseCount += 1
                return object.releaseCount <= object.retainCount
            }
            // An unbalanced release is counted (and fails the test) but not performed.
            if balanced { probe.release() }
        }
    }

    /// The C callback: records into the probe that `info` points at.
    static var callback: PathMonitor.Callback {
        { monitor, flags, info in
            guard let info else { return }
            Unmanaged<CallbackProbe>.fromOpaque(info).takeUnretainedValue().deliver(flags, monitor: monitor)
        }
    }

    private func deliver(_ flags: ReachabilityFlags, monitor: OpaquePointer) {
        let hold = lock.withLock { () -> Bool in
            defer { holds = false }
            return holds
        }
        if hold {
            entered.signal()
            _ = proceed.wait(timeout: .now() + integrationTimeout)
            // The test dropped its reference meanwhile: the monitor must still be alive, the context unreleased.
            let target = Unmanaged<PathMonitor>.fromOpaque(UnsafeRawPointer(monitor)).takeUnretainedValue().targetDescription
            lock.withLock { observedInFlight = (releaseCount, target) }
        }
        self.flags.append(flags)
    }
}

extension PathMonitor {
    /// Sets `probe`'s C callback and context.
    func setCallback(_ probe: CallbackProbe) {
        var context = probe.context()
        setCallback(CallbackProbe.callback, context: &context)
    }

    /// Records flags through the closure callback and paths through `pathUpdateHandler`.
    func record(flags: Recorder<ReachabilityFlags>? = nil, paths: Recorder<NetworkPath>? = nil) {
        if let flags { setCallback { flags.append($0) } }
        if let paths { pathUpdateHandler = { paths.append($0) } }
    }
}

extension Namespace {
    /// A monitor of `address`, its flags recorded, scheduled on `queue` and past its first
    /// callback: once its flags show a later change, the engine has read every event before it.
    func witness(_ address: String, on queue: DispatchQueue) throws -> (monitor: PathMonitor, flags: Recorder<ReachabilityFlags>) {
        let monitor = try self.monitor(address)
        let flags = Recorder<ReachabilityFlags>()
        monitor.record(flags: flags)
        monitor.setDispatchQueue(queue)
        flags.wait(forCount: 1)
        return (monitor, flags)
    }
}

/// Waits until the engine of `monitor` finished what it is doing (one hop through its queue), then
/// until `queue` ran everything queued on it before (a barrier): after this, every callback the
/// engine queued so far has run or was dropped.
///
/// Call it once an awaited callback proved that the engine saw the kernel change in question.
func settle(_ monitor: PathMonitor, _ queue: DispatchQueue) {
    _ = monitor.engine!.currentCounters
    queue.sync(flags: .barrier) {}
}

/// A user queue for one test's callbacks.
func callbackQueue(_ name: String = #function, concurrent: Bool = false) -> DispatchQueue {
    DispatchQueue(label: "nrx-it.\(name)", attributes: concurrent ? .concurrent : [])
}

/// Records what a `PathMonitorDelegate` is told.
final class RecordingDelegate: PathMonitorDelegate {
    let paths = Recorder<NetworkPath>()

    func pathMonitor(_ monitor: PathMonitor, didUpdate path: NetworkPath) {
        paths.append(path)
    }
}

/// Whether two neighbours of `sequence` are equal, and where: for "never delivered twice in a row".
func firstRepeat<T: Equatable>(in sequence: [T]) -> Int? {
    guard sequence.count > 1 else { return nil }
    return (1..<sequence.count).first { sequence[$0] == sequence[$0 - 1] }
}
