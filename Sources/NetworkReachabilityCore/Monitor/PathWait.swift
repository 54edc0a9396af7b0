import ReachabilityDelivery
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
/// How many of several monitors `waitUntilSatisfied(_:mode:timeout:isSatisfied:)` waits for.
public enum PathWaitMode: Sendable, Hashable {
    /// Every monitor's path must be satisfied at once (`systemd-networkd-wait-online`'s default).
    case all
    /// One satisfied path is enough (`systemd-networkd-wait-online --any`).
    case any
}

/// Suspends until the paths of `monitors` are satisfied (all of them, or any one), or `timeout` passes.
///
/// ```swift
/// let database = try PathMonitor(address: "10.0.0.5")
/// let cache = try PathMonitor(address: "10.0.0.6")
/// guard try await waitUntilSatisfied([database, cache], timeout: .seconds(30)) != nil else {
///     throw StartupError.networkNotReady
/// }
/// ```
///
/// Each monitor is watched through a sequence of its own (`paths(bufferingPolicy:)`, keeping only
/// the newest path), so the wait starts them and leaves any handlers and other sequences alone.
/// It waits for the kernel's events and never polls; a condition met already returns at once.
///
/// - Parameters:
///   - monitors: the monitors to watch; none at all is met at once.
///   - mode: `.all` (default) or `.any`.
///   - timeout: how long to wait from now; nil waits for ever.
///   - isSatisfied: what counts as satisfied; default: `status == .satisfied`.
/// - Returns: the latest path of each monitor, in the order of `monitors`, when the condition is
///   met; nil when the timeout passed first.
/// - Throws: `CancellationError` when the waiting task is cancelled.
public func waitUntilSatisfied(
    _ monitors: [any PathMonitoring], mode: PathWaitMode = .all, timeout: Duration? = nil,
    isSatisfied: @escaping @Sendable (NetworkPath) -> Bool = { $0.status == .satisfied }
) async throws(CancellationError) -> [NetworkPath]? {
    if monitors.isEmpty { return [] }
    let outcome = await withTaskGroup(of: Void.self, returning: WaitOutcome.self) { group in
        let (events, continuation) = AsyncStream.makeStream(of: WaitEvent.self)
        for (index, monitor) in monitors.enumerated() {
            group.addTask {
                for await path in monitor.paths(bufferingPolicy: .bufferingNewest(1)) {
                    continuation.yield(.path(index, path))
                }
            }
        }
        if let timeout {
            group.addTask {
                // A cancelled sleep throws: the wait ended otherwise, and no timeout is reported.
                if (try? await Task.sleep(for: timeout)) != nil { continuation.yield(.timeout) }
            }
        }
        var tally = WaitTally(count: monitors.count, mode: mode)
        var outcome = WaitOutcome.cancelled
        // The stream ends early only when the waiting task is cancelled.
        events: for await event in events {
            switch event {
            case .timeout:
                outcome = .timedOut
                break events
            case .path(let index, let path):
                if let paths = tally.record(path, at: index, satisfied: isSatisfied(path)) {
                    outcome = .met(paths)
                    break events
                }
            }
        }
        continuation.finish()
        group.cancelAll()
        return outcome
    }
    switch outcome {
    case .met(let paths): return paths
    case .timedOut: return nil
    case .cancelled: throw CancellationError()
    }
}

extension PathMonitoring {
    /// Suspends until this monitor's path is satisfied, or `timeout` passes; see
    /// `waitUntilSatisfied(_:mode:timeout:isSatisfied:)`.
    ///
    /// - Returns: the satisfied path; nil when the timeout passed first.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    public func waitUntilSatisfied(
        timeout: Duration? = nil, isSatisfied: @escaping @Sendable (NetworkPath) -> Bool = { $0.status == .satisfied }
    ) async throws(CancellationError) -> NetworkPath? {
        try await NetworkReachabilityCore.waitUntilSatisfied([self], timeout: timeout, isSatisfied: isSatisfied)?.first
    }

    /// Suspends until this monitor's path is satisfied (`status == .satisfied`), however long
    /// that takes: without a timeout there is no nil to handle.
    ///
    /// ```swift
    /// let path = try await PathMonitor(address: "10.0.0.5").waitUntilSatisfied()
    /// ```
    ///
    /// With a timeout or a condition of your own, `waitUntilSatisfied(timeout:isSatisfied:)`
    /// answers an optional. Keep the monitor running meanwhile: one cancelled by hand during the
    /// wait delivers nothing more, and the wait goes on until its task is cancelled.
    ///
    /// - Returns: the satisfied path.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    public func waitUntilSatisfied() async throws(CancellationError) -> NetworkPath {
        // No timeout: the wait ends satisfied or cancelled, never with nil.
        guard let path = try await waitUntilSatisfied(timeout: nil, isSatisfied: { $0.status == .satisfied }) else {
            throw CancellationError()
        }
        return path
    }
}

private enum WaitEvent: Sendable {
    case path(Int, NetworkPath)
    case timeout
}

private enum WaitOutcome: Sendable {
    case met([NetworkPath])
    case timedOut
    case cancelled
}

/// The latest path of each monitor and which are satisfied; decides when the wait is over.
struct WaitTally {
    private var latest: [NetworkPath?]
    private var satisfied: [Bool]
    private let mode: PathWaitMode

    init(count: Int, mode: PathWaitMode) {
        latest = Array(repeating: nil, count: count)
        satisfied = Array(repeating: false, count: count)
        self.mode = mode
    }

    /// Records a monitor's new path; returns every monitor's latest path once the condition is met.
    mutating func record(_ path: NetworkPath, at index: Int, satisfied isSatisfied: Bool) -> [NetworkPath]? {
        latest[index] = path
        satisfied[index] = isSatisfied
        let met = switch mode {
        case .all: satisfied.allSatisfy { $0 }
        case .any: isSatisfied
        }
        // Under `.any` a monitor that has not spoken yet has no path: it reports as not yet evaluated.
        return met ? latest.map { $0 ?? .unsatisfied(.noRoute) } : nil
    }
}
