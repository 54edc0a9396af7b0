import Dispatch
import NetworkReachability
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The running `wait`: the monitor's paths and the timeout are delivered on one serial queue, so
/// whichever comes first decides the status. Nothing polls; the main thread parks in `dispatchMain()`.
///
/// Make it before the monitor: the timeout then counts the monitor's setup (a host name's first
/// resolution) too.
struct WaitSession {
    private let queue = DispatchQueue(label: "reachability.wait")
    /// The last path seen, for the timeout's message; nil before the first.
    private let lastPath = LastPath()
    private let timer: (any DispatchSourceTimer)?

    /// Starts the timeout.
    ///
    /// - Parameters:
    ///   - target: the target as records print it, for the timeout's message.
    ///   - timeout: `--timeout` in seconds, from now; nil to wait for ever.
    init(target: String, timeout: Double?) {
        guard let timeout else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + timeout)
        let lastPath = self.lastPath
        timer.setEventHandler {
            let state = lastPath.value.withLock { $0 }.map(Self.summary(of:)) ?? "no state yet"
            Failure.printError("\(target) not reachable within \(formatSeconds(timeout)) s (\(state))")
            exit(1)
        }
        timer.resume()
        self.timer = timer
    }

    /// Starts `monitor` and serves the queue until its target is reachable (exit 0) or the timeout passes (exit 1).
    ///
    /// The monitor's first path is its current state: a target reachable already ends the wait at once.
    func run(_ monitor: PathMonitor) -> Never {
        let lastPath = self.lastPath
        let probing = monitor.connectivityProbe != nil
        monitor.pathUpdateHandler = { path in
            if path.meetsGoal(probing: probing) {
                exit(0)
            }
            lastPath.value.withLock { $0 = path }
        }
        monitor.start(queue: queue)
        withExtendedLifetime((monitor, timer)) {
            dispatchMain()
        }
    }

    /// `notReachable, unsatisfied: noRoute`, for the timeout's message.
    private static func summary(of path: NetworkPath) -> String {
        var text = "last: \(path.reachabilityStatus), \(path.status)"
        if let reason = path.unsatisfiedReason { text += ": \(reason)" }
        if path.connectivity != .unknown { text += ", connectivity \(path.connectivity)" }
        return text
    }
}

/// The last path a `wait` saw. Written and read on the session's queue only; the mutex makes it
/// shareable with the `@Sendable` handlers and is never contended.
private final class LastPath: Sendable {
    let value = Mutex<NetworkPath?>(nil)
}
