import Foundation
import SystemConfiguration

/// A client program of the project's own, in the shape that Alamofire's
/// `NetworkReachabilityManager` gives its listener (written here, not copied): the zero address
/// with BSD's length byte set, a context that passes the listener unretained, scheduling in either
/// order, restarting, and a status that only moves on a change.
///
/// It uses nothing but Apple's names (`import SystemConfiguration`), so it compiles unchanged
/// against Apple's SDK.
final class ListeningManager: @unchecked Sendable {
    enum Status: Equatable, Sendable {
        case unknown, notReachable, reachable
    }

    let target: SCNetworkReachability
    /// Every flags value the callback got, in order.
    let flagsSeen = Recorder<SCNetworkReachabilityFlags>()
    /// Every status change the listener was told of.
    let statusChanges = Recorder<Status>()
    private let lock = NSLock()
    private var status = Status.unknown

    /// The zero address: "is there a route to the internet".
    init?() {
        var zero = sockaddr()
        zero.sa_len = UInt8(MemoryLayout<sockaddr>.size)
        zero.sa_family = sa_family_t(AF_INET)
        guard let target = SCNetworkReachabilityCreateWithAddress(nil, &zero) else { return nil }
        self.target = target
    }

    deinit { stopListening() }

    var flags: SCNetworkReachabilityFlags? {
        var flags = SCNetworkReachabilityFlags()
        return SCNetworkReachabilityGetFlags(target, &flags) ? flags : nil
    }

    /// Starts (or restarts) listening on `queue`; `queueFirst` schedules before setting the callback.
    /// Without `restart`, a target already scheduled on `queue` only gets its callback.
    @discardableResult
    func startListening(on queue: DispatchQueue, queueFirst: Bool = false, restart: Bool = true) -> Bool {
        if restart { stopListening() }
        var context = SCNetworkReachabilityContext(version: 0, info: Unmanaged.passUnretained(self).toOpaque(),
                                                   retain: nil, release: nil, copyDescription: nil)
        let callout: SCNetworkReachabilityCallBack = { _, flags, info in
            guard let info else { return }
            Unmanaged<ListeningManager>.fromOpaque(info).takeUnretainedValue().didChange(flags)
        }
        if queueFirst {
            let scheduled = !restart || SCNetworkReachabilitySetDispatchQueue(target, queue)
            return SCNetworkReachabilitySetCallback(target, callout, &context) && scheduled
        }
        let callbackSet = SCNetworkReachabilitySetCallback(target, callout, &context)
        return SCNetworkReachabilitySetDispatchQueue(target, queue) && callbackSet
    }

    func stopListening() {
        SCNetworkReachabilitySetCallback(target, nil, nil)
        SCNetworkReachabilitySetDispatchQueue(target, nil)
        lock.withLock { status = .unknown }
    }

    private func didChange(_ flags: SCNetworkReachabilityFlags) {
        flagsSeen.append(flags)
        let reachable = flags.contains(.reachable) && !flags.contains(.connectionRequired)
        let new: Status = reachable ? .reachable : .notReachable
        let changed = lock.withLock { () -> Bool in
            defer { status = new }
            return status != new
        }
        if changed { statusChanges.append(new) }
    }
}
