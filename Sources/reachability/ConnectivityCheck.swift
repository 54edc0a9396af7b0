import Dispatch
import NetworkReachability

/// `check --probe`: the library's async `checkConnectivity()`, waited for by the synchronous command.
enum ConnectivityCheck {
    static func run(_ monitor: PathMonitor) -> NetworkPath {
        let result = LockedState<NetworkPath?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let path = await monitor.checkConnectivity()
            result.withLock { $0 = path }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }!
    }
}
