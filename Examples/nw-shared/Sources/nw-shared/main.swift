import Dispatch
#if canImport(Network)
import Network
#else
import ReachabilityCompat
#endif

// nw-shared: the same NWPathMonitor code on Apple's platforms and on Linux. Prints the first
// path's status and whether it is offline, as an app's code reads it, then exits.
let monitor = NWPathMonitor()
let firstPath = DispatchSemaphore(value: 0)
monitor.pathUpdateHandler = { path in
    let isOffline = path.status == .unsatisfied
    print("first path: \(path.status == .satisfied ? "satisfied" : "not satisfied"), offline: \(isOffline)")
    firstPath.signal()
}
monitor.start(queue: DispatchQueue(label: "nw-shared"))
firstPath.wait()
monitor.cancel()
