import Foundation
import Synchronization
import SystemConfiguration

/// A client program of the project's own, in the shape of ashleymills/Reachability.swift's
/// notifier (written here, not copied): the callback's `info` is a small box that holds the
/// notifier weakly, retained and released through the context, and described through
/// `copyDescription` returning `Unmanaged.passRetained(text as CFString)`. Releasing the notifier
/// while it is scheduled stops it.
final class WeakBoxNotifier: @unchecked Sendable {
    /// What the context's `info` points at: the notifier, weakly, and the context's bookkeeping.
    final class Box: @unchecked Sendable {
        weak var notifier: WeakBoxNotifier?
        let retains = Atomic<Int>(0)
        let releases = Atomic<Int>(0)
        let descriptionsMade = Atomic<Int>(0)
        /// The last string `copyDescription` handed out, weakly: it is gone once the retain it carried was balanced.
        weak var lastDescription: NSString?
        /// Callbacks that arrived for a notifier already gone.
        let orphanCallbacks = Atomic<Int>(0)
    }

    let target: SCNetworkReachability
    let box = Box()
    let flagsSeen = Recorder<SCNetworkReachabilityFlags>()
    let label: String
    private let queue: DispatchQueue

    init?(hostname: String, queue: DispatchQueue) {
        guard let target = SCNetworkReachabilityCreateWithName(nil, hostname) else { return nil }
        self.target = target
        self.label = hostname
        self.queue = queue
        box.notifier = self
    }

    init?(zeroAddressOn queue: DispatchQueue) {
        var zero = sockaddr_in()
        zero.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        zero.sin_family = sa_family_t(AF_INET)
        let target = withUnsafePointer(to: &zero) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SCNetworkReachabilityCreateWithAddress(nil, $0) }
        }
        guard let target else { return nil }
        self.target = target
        self.label = "zero address"
        self.queue = queue
        box.notifier = self
    }

    deinit { stopNotifier() }

    /// Sets the callback and schedules it; `queueFirst` schedules before setting the callback.
    func startNotifier(queueFirst: Bool = false) -> Bool {
        var context = SCNetworkReachabilityContext(
            version: 0,
            info: Unmanaged.passUnretained(box).toOpaque(),
            retain: { info in
                let box = Unmanaged<Box>.fromOpaque(info)
                box.takeUnretainedValue().retains.add(1, ordering: .relaxed)
                return UnsafeRawPointer(box.retain().toOpaque())
            },
            release: { info in
                let box = Unmanaged<Box>.fromOpaque(info)
                box.takeUnretainedValue().releases.add(1, ordering: .relaxed)
                box.release()
            },
            copyDescription: { info in
                let box = Unmanaged<Box>.fromOpaque(info).takeUnretainedValue()
                box.descriptionsMade.add(1, ordering: .relaxed)
                let text = "notifier of \(box.notifier?.label ?? "nothing")" as CFString
                box.lastDescription = text
                return Unmanaged.passRetained(text)
            }
        )
        let callout: SCNetworkReachabilityCallBack = { _, flags, info in
            guard let info else { return }
            let box = Unmanaged<Box>.fromOpaque(info).takeUnretainedValue()
            guard let notifier = box.notifier else {
                box.orphanCallbacks.add(1, ordering: .relaxed)
                return
            }
            notifier.flagsSeen.append(flags)
        }
        if queueFirst {
            guard SCNetworkReachabilitySetDispatchQueue(target, queue) else { return false }
            return SCNetworkReachabilitySetCallback(target, callout, &context)
        }
        guard SCNetworkReachabilitySetCallback(target, callout, &context) else { return false }
        return SCNetworkReachabilitySetDispatchQueue(target, queue)
    }

    func stopNotifier() {
        SCNetworkReachabilitySetCallback(target, nil, nil)
        SCNetworkReachabilitySetDispatchQueue(target, nil)
    }
}
