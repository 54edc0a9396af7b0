import ExampleSupport
import Foundation
import ReachabilityCompat
import Synchronization

// sc-monitor [--updates N] [--timeout SECONDS]
//
// Prints one line per change of the zero address's reachability, the first at once:
//   Reachability: Reachable via WiFi (flags 0x00000002)
// and exits after N lines (status 0), or when the timeout passes (status 0 without --updates,
// else 1). Run it in a namespace with `ip netns exec NAME sc-monitor`.

let options = ExampleOptions.parse(name: "sc-monitor")
let updates = Mutex(0)
let done = DispatchSemaphore(value: 0)

guard let monitor = ReachabilityMonitor(onChange: { flags in
    say("Reachability: \(ReachabilityMonitor.describe(flags)) (flags 0x\(String(flags.rawValue, radix: 16, uppercase: false).leftPadded(to: 8)))")
    let count = updates.withLock { count in
        count += 1
        return count
    }
    if let wanted = options.updates, count >= wanted { done.signal() }
}) else {
    complain("sc-monitor: cannot create the reachability target: \(String(cString: SCErrorString(SCError())))")
    exit(2)
}
guard monitor.start() else {
    complain("sc-monitor: cannot start: \(String(cString: SCErrorString(SCError())))")
    exit(2)
}
exit(options.wait(on: done))
