import Hummingbird
import Logging
import NetworkReachability
import NetworkReachabilityService

/// What `GET /network` answers: whether the network is usable, the probe's word, and the path.
public struct NetworkStatus: ResponseEncodable, Sendable {
    public var online: Bool
    public var connectivity: Connectivity
    public var path: NetworkPath
}

/// The path now, read without blocking (the handler's task suspends; a fake answers at once).
public func networkStatus(of monitor: any PathMonitoring) async -> NetworkStatus {
    let path = await monitor.fetchCurrentPath()
    return NetworkStatus(online: path.status == .satisfied, connectivity: path.connectivity, path: path)
}

/// `GET /network`, and a `PathMonitorService` over the same monitor: it logs each change, and
/// stops and cancels the monitor when the application shuts down (SIGTERM, SIGINT).
public func buildApplication(monitor: any PathMonitoring, logger: Logger) -> some ApplicationProtocol {
    let router = Router()
    router.get("/network") { _, _ in await networkStatus(of: monitor) }
    let reachability = PathMonitorService(makeMonitor: { monitor }) { path in
        logger.info("network: \(path)")
    }
    return Application(router: router, services: [reachability], logger: logger)
}
