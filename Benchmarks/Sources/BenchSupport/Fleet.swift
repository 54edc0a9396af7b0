import CBenchNetlink
import Dispatch
import NetworkReachability
import Synchronization

/// Many monitors scheduled on one serial queue, with a count of the callbacks that report the
/// state a round expects: "all N monitors got their callback" is one semaphore wait.
///
/// Only the public API: `PathMonitor(address:namespace:)`, `setCallback(_:)`, `setDispatchQueue(_:)`.
public final class MonitorFleet: @unchecked Sendable {
    public let monitors: [PathMonitor]
    public let queue = DispatchQueue(label: "nrx-bench.callbacks")
    private let matching = Atomic<Int>(0)
    private let all = Atomic<Int>(0)
    /// 0: not reachable, 1: reachable, 2: any state counts.
    private let expectation = Atomic<Int>(1)
    private let wanted = Atomic<Int>(0)
    private let firstNs = Atomic<Int64>(0)
    private let lastNs = Atomic<Int64>(0)
    private let done = DispatchSemaphore(value: 0)

    /// Creates one unscheduled monitor per address.
    public init(addresses: [String], namespace: NetworkNamespace = .current) throws {
        var monitors: [PathMonitor] = []
        monitors.reserveCapacity(addresses.count)
        for address in addresses {
            monitors.append(try PathMonitor(address: address, namespace: namespace))
        }
        self.monitors = monitors
        for monitor in monitors {
            monitor.setCallback { [unowned self] flags in self.callback(flags) }
        }
    }

    private func callback(_ flags: ReachabilityFlags) {
        let now = nrxb_monotonic_ns()
        all.add(1, ordering: .relaxed)
        let expected = expectation.load(ordering: .acquiring)
        guard expected == 2 || (expected == 1) == flags.contains(.reachable) else { return }
        let count = matching.add(1, ordering: .acquiringAndReleasing).newValue
        if count == 1 { firstNs.store(now, ordering: .relaxed) }
        if count == wanted.load(ordering: .relaxed) {
            lastNs.store(now, ordering: .releasing)
            done.signal()
        }
    }

    /// Expects `count` callbacks (default: one per monitor) reporting reachable or not (nil: any state).
    public func arm(expectReachable reachable: Bool?, count: Int? = nil) {
        matching.store(0, ordering: .relaxed)
        all.store(0, ordering: .relaxed)
        firstNs.store(0, ordering: .relaxed)
        lastNs.store(0, ordering: .relaxed)
        wanted.store(count ?? monitors.count, ordering: .relaxed)
        expectation.store(reachable.map { $0 ? 1 : 0 } ?? 2, ordering: .releasing)
    }

    /// Schedules every monitor (each gets its first callback with the current state).
    public func schedule() {
        for monitor in monitors { monitor.setDispatchQueue(queue) }
    }

    public func unschedule() {
        for monitor in monitors { monitor.unschedule() }
    }

    /// Waits until the armed count is reached. - Returns: (first, last) callback times, monotonic ns; nil on timeout.
    public func wait(timeoutSeconds: Double) -> (first: Int64, last: Int64)? {
        guard done.wait(timeout: .now() + timeoutSeconds) == .success else { return nil }
        return (firstNs.load(ordering: .relaxed), lastNs.load(ordering: .acquiring))
    }

    /// Callbacks that reported the expected state since `arm`.
    public var matchingCallbacks: Int { matching.load(ordering: .relaxed) }
    /// All callbacks since `arm`.
    public var allCallbacks: Int { all.load(ordering: .relaxed) }
}
