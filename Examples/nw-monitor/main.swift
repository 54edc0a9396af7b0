import ExampleSupport
import Foundation
import ReachabilityCompat  // was: import Network
import Synchronization

// nw-monitor [--updates N] [--timeout SECONDS]
//
// NWPathMonitor's way. Prints one line per path update, the first at once:
//   Path: satisfied, Reachable via WiFi, interfaces: v0
// and exits after N updates (status 0), or when the timeout passes (status 0 without --updates,
// else 1). Run it in a namespace with `ip netns exec NAME nw-monitor`.

let options = ExampleOptions.parse(name: "nw-monitor")
let done = DispatchSemaphore(value: 0)
let updates = Mutex(0)

let monitor = NWPathMonitor()
monitor.pathUpdateHandler = { path in
    let reachability: String
    if path.status != .satisfied {
        reachability = "Not Reachable"
    } else if path.usesInterfaceType(.cellular) {
        reachability = "Reachable via WWAN"
    } else {
        reachability = "Reachable via WiFi"
    }
    let interfaces = path.availableInterfaces.map(\.name).joined(separator: ",")
    say("Path: \(path.status), \(reachability), interfaces: \(interfaces.isEmpty ? "none" : interfaces)")
    let count = updates.withLock { count in
        count += 1
        return count
    }
    if let wanted = options.updates, count == wanted { done.signal() }
}
monitor.start(queue: DispatchQueue(label: "nw-monitor"))
let status = options.wait(on: done)
monitor.cancel()
exit(status)
