import Foundation
import Hummingbird
import NetworkReachability
import NetworkReachabilityService

/// How the service runs: where it listens and what it watches.
public struct ReadyServiceConfiguration: Sendable {
    /// Where the HTTP server listens.
    public var host: String
    /// Its port; 0 picks a free one.
    public var port: Int
    /// Makes the monitor `/health/ready` follows; default: the general path of the pod's own namespace.
    public var makeMonitor: @Sendable () throws -> any PathMonitoring
    /// What "ready" means for a path.
    public var criterion: Readiness.Criterion
    /// Called with the port once the server listens (tests listen on port 0).
    public var onServerRunning: @Sendable (Int) async -> Void

    public init(
        host: String = "0.0.0.0", port: Int = 8080,
        makeMonitor: @escaping @Sendable () throws -> any PathMonitoring = { PathMonitor() },
        criterion: @escaping Readiness.Criterion = Readiness.pathSatisfied,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        self.host = host
        self.port = port
        self.makeMonitor = makeMonitor
        self.criterion = criterion
        self.onServerRunning = onServerRunning
    }
}

/// The application: `GET /health/live` (always 200 while the process serves) and
/// `GET /health/ready` (200 when ready, else 503; the body is the path as JSON), with a
/// `PathMonitorService` in the same service group, so both stop together on SIGTERM.
public func buildApplication(_ configuration: ReadyServiceConfiguration) -> some ApplicationProtocol {
    let readiness = Readiness(criterion: configuration.criterion)
    let router = Router()
    router.get("/health/live") { _, _ in HTTPResponse.Status.ok }
    router.get("/health/ready") { _, _ in readyResponse(readiness.state) }
    let reachability = PathMonitorService(makeMonitor: configuration.makeMonitor) { path in readiness.update(path) }
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "ready-service"),
        services: [reachability],
        onServerRunning: { channel in await configuration.onServerRunning(channel.localAddress?.port ?? configuration.port) }
    )
}

/// 200 or 503, with `{"ready":BOOL,"path":PATH}`: the path in the shape of `reachability --json`.
private func readyResponse(_ state: (isReady: Bool, path: NetworkPath?)) -> Response {
    struct Body: Encodable {
        var ready: Bool
        var path: NetworkPath?
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = (try? encoder.encode(Body(ready: state.isReady, path: state.path))) ?? Data("{}".utf8)
    return Response(
        status: state.isReady ? .ok : .serviceUnavailable,
        headers: [.contentType: "application/json"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
    )
}
