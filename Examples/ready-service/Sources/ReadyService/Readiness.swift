import NetworkReachability
import Synchronization

/// What `/health/ready` answers from: the latest path of the service's monitor, and the rule that
/// turns it into "ready".
///
/// `PathMonitorService` writes each path here; the HTTP handler reads it. Until the first path
/// arrives the service is not ready.
public final class Readiness: Sendable {
    /// The rule: given the latest path, is the service ready?
    public typealias Criterion = @Sendable (NetworkPath) -> Bool

    /// Ready while the path is satisfied.
    ///
    /// Hook for connectivity: with a `ConnectivityProbe` on the monitor, pass a criterion that also
    /// requires its answer, `{ $0.status == .satisfied && $0.connectivity == .full }`; nothing else
    /// here changes.
    public static let pathSatisfied: Criterion = { $0.status == .satisfied }

    private let latest = Mutex<NetworkPath?>(nil)
    private let criterion: Criterion

    public init(criterion: @escaping Criterion = Readiness.pathSatisfied) {
        self.criterion = criterion
    }

    /// The monitor's new path (`PathMonitorService`'s `onPath`).
    public func update(_ path: NetworkPath) {
        latest.withLock { $0 = path }
    }

    /// Whether the service is ready, and the path that says so (nil before the first one).
    public var state: (isReady: Bool, path: NetworkPath?) {
        let path = latest.withLock { $0 }
        return (path.map(criterion) ?? false, path)
    }
}
