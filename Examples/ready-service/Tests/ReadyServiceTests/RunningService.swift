import Logging
import ReadyService
import ServiceLifecycle
import XCTest

/// Runs the service as `main.swift` does (its own service group), on a free port of 127.0.0.1,
/// for the duration of `body`; then shuts it down gracefully and waits for it.
func withRunningService(
    _ configuration: ReadyServiceConfiguration, _ body: (_ port: Int) async throws -> Void
) async throws {
    var configuration = configuration
    configuration.host = "127.0.0.1"
    configuration.port = 0
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    configuration.onServerRunning = { port in continuation.yield(port) }
    let group = ServiceGroup(services: [buildApplication(configuration)], logger: Logger(label: "ready-service-test"))
    let running = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw CommandFailure(description: "the server never listened") }
    do {
        try await body(port)
    } catch {
        await group.triggerGracefulShutdown()
        _ = try? await running.value
        throw error
    }
    await group.triggerGracefulShutdown()
    try await running.value
}
