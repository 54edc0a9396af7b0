import ReachabilityDelivery
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch

/// What a service consumes of a `PathMonitor`: the current path, the paths as they change (as an
/// async sequence or through a handler), the flags for the SCNetworkReachability face, start and cancel.
///
/// Write the code under test against `any PathMonitoring`; production code passes a `PathMonitor`,
/// a test passes the `FakePathMonitor` of the `NetworkReachabilityTesting` product and drives it
/// path by path, with no kernel and no namespace.
public protocol PathMonitoring: AnyObject, Sendable {
    /// The path now.
    var currentPath: NetworkPath { get }

    /// The path now, suspending the task instead of blocking its thread: a `PathMonitor` waits
    /// here for a host name's first resolution, a fake answers at once. Read it from async code
    /// (a route handler, a task), `currentPath` from a queue.
    func fetchCurrentPath() async -> NetworkPath

    /// The target's flags now; throws when the monitor cannot watch its namespace.
    func flags() throws(ReachabilityError) -> ReachabilityFlags

    /// Called on the monitor's queue with each new path, the current one first, once started.
    var pathUpdateHandler: (@Sendable (NetworkPath) -> Void)? { get set }

    /// Sets or clears a closure called on the monitor's queue with the flags of each new path.
    func setCallback(_ handler: (@Sendable (ReachabilityFlags) -> Void)?)

    /// Starts delivering paths to the handlers on `queue`.
    func start(queue: DispatchQueue)

    /// Stops delivering paths and ends every sequence of paths made by `paths(bufferingPolicy:)`.
    func cancel()

    /// The paths as an async sequence: the current one first, then one per change, until `cancel()`
    /// or until the consuming task is cancelled.
    ///
    /// - Parameter bufferingPolicy: what to keep while the consumer is busy: `.unbounded` never
    ///   loses a path, `.bufferingNewest(1)` never lags behind the newest.
    func paths(bufferingPolicy: AsyncStream<NetworkPath>.Continuation.BufferingPolicy) -> AsyncStream<NetworkPath>

    /// The namespace the monitor watches.
    var namespace: NetworkNamespace { get }

    /// Why the monitor cannot watch its namespace; nil for a working monitor.
    var setupError: ReachabilityError? { get }
}

extension PathMonitoring {
    /// `currentPath`, for a conformance that never blocks to answer (a monitor of your own that
    /// predates this requirement keeps compiling).
    public func fetchCurrentPath() async -> NetworkPath {
        currentPath
    }

    /// The paths, keeping the newest 64 while the consumer is busy (what iterating a `PathMonitor` keeps).
    public func paths() -> AsyncStream<NetworkPath> {
        paths(bufferingPolicy: PathMonitor.defaultBufferingPolicy)
    }
}

extension PathMonitor: PathMonitoring {}
