import ReachabilitySystem
import Dispatch
import NetworkReachabilityCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The running `wait`: the monitors' paths and the timeout are delivered on one serial queue, so
/// whichever comes first decides the status. Nothing polls; the main thread parks (`MainThread.park()`).
///
/// Make it before the monitors: the timeout then counts their setup (a host name's first
/// resolution) too.
struct WaitSession {
    private let queue = DispatchQueue(label: "reachability.wait")
    private let goals: WaitGoalList
    /// The last path of each monitored target, then of the interfaces' general path; nil before its first.
    private let lastPaths: LastPaths
    private let mode: PathWaitMode
    private let probing: Bool
    private let namespace: NetworkNamespace
    private let timer: (any DispatchSourceTimer)?

    /// The monitors of a wait: one per target and family, and one general path for `--interface`.
    struct Monitors {
        var targets: [PathMonitor]
        var interfaces: PathMonitor?
    }

    /// Starts the timeout.
    ///
    /// - Parameters:
    ///   - goals: what to wait for.
    ///   - mode: `--all` (every target reachable at once) or `--any` (one is enough).
    ///   - timeout: `--timeout`, from now.
    ///   - timeoutIsDefault: no `--timeout` was given: the timeout's line says how to change it.
    ///   - probing: `--probe` was given: a target is done when reachable with connectivity `full`.
    ///   - namespace: the namespace the monitors watch, for the interfaces' state on a timeout.
    init(goals: WaitGoalList, mode: PathWaitMode, timeout: WaitTimeout, timeoutIsDefault: Bool = false,
         probing: Bool = false, namespace: NetworkNamespace = .current) {
        let lastPaths = LastPaths(count: goals.monitoredTargets.count + (goals.interfaces.isEmpty ? 0 : 1))
        self.goals = goals
        self.lastPaths = lastPaths
        self.mode = mode
        self.probing = probing
        self.namespace = namespace
        guard let seconds = timeout.seconds else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + seconds)
        timer.setEventHandler {
            let paths = lastPaths.value.withLock { $0 }
            let statuses = goals.interfaces.isEmpty ? nil : try? NetworkInterface.statuses(in: namespace)
            let unmet = goals.unmet(paths: Array(paths.prefix(goals.monitoredTargets.count)),
                                    available: Self.availableNames(paths, goals), interfaceStatuses: statuses,
                                    mode: mode, probing: probing)
            let hint = timeoutIsDefault ? " (the default; --timeout SECONDS or forever changes it)" : ""
            Failure.printError("timed out after \(formatSeconds(seconds)) s\(hint): " + unmet.joined(separator: "; "))
            exit(1)
        }
        timer.resume()
        self.timer = timer
    }

    /// Makes the monitors of the goals, in `namespace`.
    ///
    /// - Throws: `ReachabilityError` for an invalid address, host name or namespace.
    func makeMonitors() throws -> Monitors {
        let targets = try goals.monitoredTargets.map { try $0.makeMonitor(namespace: namespace) }
        let interfaces = goals.interfaces.isEmpty ? nil : try TargetSpecification.general.makeMonitor(namespace: namespace)
        return Monitors(targets: targets, interfaces: interfaces)
    }

    /// Starts `monitors` and serves the queue until the goals are met (exit 0) or the timeout
    /// passes (exit 1).
    ///
    /// Each monitor's first path is its current state: goals met already end the wait at once.
    func run(_ monitors: Monitors) -> Never {
        let (lastPaths, goals, mode, probing) = (self.lastPaths, self.goals, self.mode, self.probing)
        let all = monitors.targets + (monitors.interfaces.map { [$0] } ?? [])
        for (index, monitor) in all.enumerated() {
            monitor.pathUpdateHandler = { path in
                let met = lastPaths.value.withLock { paths -> Bool in
                    paths[index] = path
                    return goals.areMet(paths: Array(paths.prefix(goals.monitoredTargets.count)),
                                        available: Self.availableNames(paths, goals), mode: mode, probing: probing)
                }
                if met { exit(0) }
            }
        }
        all.forEach { $0.start(queue: queue) }
        withExtendedLifetime((all, timer)) {
            MainThread.park()
        }
    }

    /// The names of the interfaces the general path of `--interface` lists as available.
    private static func availableNames(_ paths: [NetworkPath?], _ goals: WaitGoalList) -> Set<String> {
        guard !goals.interfaces.isEmpty, let path = paths.last ?? nil else { return [] }
        return Set(path.availableInterfaces.map(\.name))
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
