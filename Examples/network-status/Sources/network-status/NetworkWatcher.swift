import Dispatch
#if os(Linux)
import NetworkReachability
#elseif canImport(Network)
import Network
#endif

/// What the service needs to know about the network; the rest of its code sees only this.
protocol NetworkWatcher: Sendable {
    /// Whether the network is usable now.
    func isOnline() async -> Bool
    /// Calls `onChange` on the watcher's queue with each change, the current state first.
    func start(onChange: @escaping @Sendable (Bool) -> Void)
    /// Stops the calls.
    func stop()
}

#if os(Linux)
/// Linux: NetworkReachability's `PathMonitor`, the general path as `NWPathMonitor()` watches it.
final class SystemNetworkWatcher: NetworkWatcher {
    private let monitor = PathMonitor()

    func isOnline() async -> Bool {
        await monitor.fetchCurrentPath().status == .satisfied
    }

    func start(onChange: @escaping @Sendable (Bool) -> Void) {
        monitor.pathUpdateHandler = { path in onChange(path.status == .satisfied) }
        monitor.start(queue: DispatchQueue(label: "network-watcher"))
    }

    func stop() {
        monitor.cancel()
    }
}
#elseif canImport(Network)
/// macOS: Apple's `NWPathMonitor`.
final class SystemNetworkWatcher: NetworkWatcher, @unchecked Sendable {  // NWPathMonitor is thread-safe
    private let monitor = NWPathMonitor()
    private let queue = DispatchQueue(label: "network-watcher")

    func isOnline() async -> Bool {
        monitor.currentPath.status == .satisfied
    }

    func start(onChange: @escaping @Sendable (Bool) -> Void) {
        monitor.pathUpdateHandler = { path in onChange(path.status == .satisfied) }
        monitor.start(queue: queue)
    }

    func stop() {
        monitor.cancel()
    }
}
#endif
