import Dispatch
import NetworkReachabilityCore

/// `check --probe`: the library's `checkConnectivity`, waited for by the synchronous command.
///
/// Without a task: a task's first worker thread makes libdispatch open its epoll descriptor,
/// which traps (SIGILL) when descriptors run out, instead of letting the command say why.
enum ConnectivityCheck {
    static func run(_ monitor: PathMonitor) -> NetworkPath {
        let done = DispatchSemaphore(value: 0)
        monitor.checkConnectivity { done.signal() }
        done.wait()
        return monitor.currentPath
    }
}
