import Dispatch
import ReachabilityCompat  // was: import SystemConfiguration

/// Watches whether the internet can be reached, written against SystemConfiguration's
/// reachability API as Apple's "Network reachability" pattern has it: a zero `sockaddr_in`
/// address, a context whose `info` is this object, a C callback given as a closure literal, a
/// dispatch queue, an initial read of the flags, and a check against the previous flags.
///
/// Ported from Apple's platforms by changing the import line.
///
/// `@unchecked Sendable`: `previousFlags` is read and written only on `queue`; the other stored
/// properties are immutable.
final class ReachabilityMonitor: @unchecked Sendable {
    private let reachability: SCNetworkReachability
    private let queue = DispatchQueue(label: "sc-monitor.reachability")
    private var previousFlags: SCNetworkReachabilityFlags?
    private let onChange: @Sendable (SCNetworkReachabilityFlags) -> Void

    /// Returns nil when the reachability target cannot be made (`SCError()` says why).
    init?(onChange: @escaping @Sendable (SCNetworkReachabilityFlags) -> Void) {
        var zeroAddress = sockaddr_in()
        zeroAddress.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        zeroAddress.sin_family = sa_family_t(AF_INET)
        guard let reachability = withUnsafePointer(to: &zeroAddress, {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                SCNetworkReachabilityCreateWithAddress(nil, $0)
            }
        }) else {
            return nil
        }
        self.reachability = reachability
        self.onChange = onChange
    }

    deinit {
        stop()
    }

    /// Starts watching; the current state is reported first.
    func start() -> Bool {
        queue.sync { previousFlags = nil }
        var context = SCNetworkReachabilityContext(version: 0, info: nil, retain: nil, release: nil, copyDescription: nil)
        context.info = Unmanaged.passUnretained(self).toOpaque()
        let callback: SCNetworkReachabilityCallBack = { (_, flags, info) in
            guard let info else { return }
            let monitor = Unmanaged<ReachabilityMonitor>.fromOpaque(info).takeUnretainedValue()
            monitor.checkReachability(flags: flags)
        }
        guard SCNetworkReachabilitySetCallback(reachability, callback, &context),
              SCNetworkReachabilitySetDispatchQueue(reachability, queue) else {
            return false
        }
        // The first callback brings the current flags too (Apple's may not): the check against
        // the previous flags reports them once.
        queue.async {
            var flags = SCNetworkReachabilityFlags()
            SCNetworkReachabilityGetFlags(self.reachability, &flags)
            self.checkReachability(flags: flags)
        }
        return true
    }

    /// Stops watching; once it returns, no callback runs.
    func stop() {
        SCNetworkReachabilitySetDispatchQueue(reachability, nil)
        SCNetworkReachabilitySetCallback(reachability, nil, nil)
    }

    /// On `queue`: reports the flags when they differ from the previous ones.
    private func checkReachability(flags: SCNetworkReachabilityFlags) {
        guard previousFlags != flags else { return }
        previousFlags = flags
        onChange(flags)
    }

    /// AFNetworking's reading of the flags: "Not Reachable", "Reachable via WWAN" or "Reachable via WiFi".
    static func describe(_ flags: SCNetworkReachabilityFlags) -> String {
        let isReachable = flags.contains(.reachable)
        let needsConnection = flags.contains(.connectionRequired)
        let canConnectAutomatically = flags.contains(.connectionOnDemand) || flags.contains(.connectionOnTraffic)
        let canConnectWithoutUserInteraction = canConnectAutomatically && !flags.contains(.interventionRequired)
        guard isReachable && (!needsConnection || canConnectWithoutUserInteraction) else { return "Not Reachable" }
        return flags.contains(.isWWAN) ? "Reachable via WWAN" : "Reachable via WiFi"
    }
}
