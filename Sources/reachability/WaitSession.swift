import ReachabilitySystem
import Dispatch
import NetworkReachabilityCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The running `wait`: the monitors' paths and the timeout are delivered on one serial queue, so
/// whichever comes first decides the status. Nothing polls; the main thread parks in `dispatchMain()`.
///
/// Make it before the monitors: the timeout then counts their setup (a host name's first
/// resolution) too.
struct WaitSession {
    private let queue = DispatchQueue(label: "reachability.wait")
    /// The last path of each target, for the timeout's message; nil before its first.
    private let lastPaths: LastPaths
    private let mode: PathWaitMode
    private let timer: (any DispatchSourceTimer)?

    /// Starts the timeout.
    ///
    /// - Parameters:
    ///   - targets: the targets as records print them, for the timeout's message.
    ///   - mode: `--all` (every target reachable at once) or `--any` (one is enough).
    ///   - timeout: `--timeout` in seconds, from now; nil to wait for ever.
    ///   - probing: `--probe` was given: a target is done when reachable with connectivity `full`.
    init(targets: [String], mode: PathWaitMode, timeout: Double?, probing: Bool = false) {
        let lastPaths = LastPaths(count: targets.count)
        self.lastPaths = lastPaths
        self.mode = mode
        guard let timeout else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + timeout)
        timer.setEventHandler {
            let paths = lastPaths.value.withLock { $0 }
            // Only the targets that kept the wait going: all of them under --any, the unreachable ones under --all.
            let pending = zip(targets, paths).filter { !($0.1?.meetsGoal(probing: probing) ?? false) }.map { target, path in
                (target, path.map(Self.summary(of:)) ?? "no state yet")
            }
            let within = "not reachable within \(formatSeconds(timeout)) s"
            Failure.printError(pending.count == 1
                ? "\(pending[0].0) \(within) (\(pending[0].1))"
                : "\(within): " + pending.map { "\($0) (\($1))" }.joined(separator: ", "))
            exit(1)
        }
        timer.resume()
        self.timer = timer
    }

    /// Starts `monitors` and serves the queue until the targets are reachable, all or any as the
    /// mode says (exit 0), or the timeout passes (exit 1).
    ///
    /// Each monitor's first path is its current state: targets reachable already end the wait at once.
    func run(_ monitors: [PathMonitor]) -> Never {
        let lastPaths = self.lastPaths
        let mode = self.mode
        for (index, monitor) in monitors.enumerated() {
            let probing = monitor.connectivityProbe != nil
            monitor.pathUpdateHandler = { path in
                let reachable = lastPaths.value.withLock { paths -> [Bool] in
                    paths[index] = path
                    return paths.map { $0?.meetsGoal(probing: probing) ?? false }
                }
                if mode == .all ? reachable.allSatisfy({ $0 }) : reachable[index] {
                    exit(0)
                }
            }
        }
        monitors.forEach { $0.start(queue: queue) }
        withExtendedLifetime((monitors, timer)) {
            dispatchMain()
        }
    }

    /// `last: notReachable, unsatisfied: noRoute`, for the timeout's message.
    private static func summary(of path: NetworkPath) -> String {
        var text = "last: \(path.reachabilityStatus), \(path.status)"
        if let reason = path.unsatisfiedReason { text += ": \(reason)" }
        if path.connectivity != .unknown { text += ", connectivity \(path.connectivity)" }
        return text
    }
}

/// The last path of each target a `wait` saw. Written and read on the session's queue only; the
/// mutex makes it shareable with the `@Sendable` handlers and is never contended.
private final class LastPaths: Sendable {
    let value: LockedState<[NetworkPath?]>

    init(count: Int) {
        value = LockedState(Array(repeating: nil, count: count))
    }
}
