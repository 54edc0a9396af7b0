import NetworkReachability
import ServiceLifecycle

/// Runs a `PathMonitor` as a swift-service-lifecycle `Service`, so a Vapor or Hummingbird server
/// adds reachability to its `ServiceGroup` and it stops cleanly on graceful shutdown.
///
/// ```swift
/// let reachability = PathMonitorService { path in
///     logger.info("network: \(path)")
/// }
/// let group = ServiceGroup(services: [server, reachability], logger: logger)
/// try await group.run()
/// ```
///
/// The monitor is made in `run()`, never in `init`; each path is handed to `onPath` in order, the
/// first one at once. On graceful shutdown `run()` returns; when the monitored namespace goes
/// away or cannot be opened it throws, so the group sees the failure. It never returns early.
///
/// `makeMonitor` may return a monitor the application also holds (a route handler reading its
/// path, say): the service iterates it, which keeps its path up to date for every reader, and
/// **cancels it** when `run()` ends (graceful shutdown, its namespace gone, cancellation), ending its
/// sequences and callbacks.
///
/// ```swift
/// let monitor = PathMonitor()
/// let reachability = PathMonitorService(makeMonitor: { monitor }) { path in logger.info("network: \(path)") }
/// router.get("/network") { _, _ in "\(await monitor.fetchCurrentPath().status)" }
/// ```
public struct PathMonitorService: Service {
    private let makeMonitor: @Sendable () throws -> any PathMonitoring
    private let onPath: @Sendable (NetworkPath) async -> Void

    /// - Parameters:
    ///   - makeMonitor: makes (or hands over) the monitor when the service runs; default: the
    ///     general path of the process's namespace (`PathMonitor()`). The service cancels it when
    ///     `run()` ends. A test returns a `FakePathMonitor` (`NetworkReachabilityTesting`) here and
    ///     drives it path by path.
    ///   - onPath: called with each path, the current one first.
    public init(
        makeMonitor: @escaping @Sendable () throws -> any PathMonitoring = { PathMonitor() },
        onPath: @escaping @Sendable (NetworkPath) async -> Void
    ) {
        self.makeMonitor = makeMonitor
        self.onPath = onPath
    }

    /// Watches until graceful shutdown.
    ///
    /// - Throws: `ReachabilityError` when the monitor cannot be made, or its namespace cannot be
    ///   opened or goes away; `CancellationError` when the task is cancelled without a shutdown.
    public func run() async throws {
        let monitor = try makeMonitor()
        if let error = monitor.setupError { throw error }
        defer { monitor.cancel() }
        for await path in monitor.paths().cancelOnGracefulShutdown() {
            if path.unsatisfiedReason == .namespaceUnavailable {
                throw ReachabilityError.namespaceNotFound(path: monitor.namespace.path)
            }
            await onPath(path)
        }
        if Task.isShuttingDownGracefully { return }
        try Task.checkCancellation()
        // The sequence ends only with shutdown or cancellation, or when the monitor is cancelled by hand.
        throw CancellationError()
    }
}
