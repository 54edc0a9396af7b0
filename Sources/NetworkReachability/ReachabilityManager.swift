import ReachabilitySystem
import Dispatch
import Foundation
import Logging

/// AFNetworkReachabilityManager's face: a status (`unknown`, `notReachable`, `reachableViaWWAN`,
/// `reachableViaWiFi`), a block, a delegate and a notification, over a `PathMonitor`.
///
/// ```swift
/// let manager = try ReachabilityManager(domain: "example.com")
/// manager.setReachabilityStatusChangeBlock { status in
///     print("Reachability: \(status.localizedDescription)")
/// }
/// manager.startMonitoring()
/// ```
///
/// After `startMonitoring()` the first status is always delivered, even "Not Reachable"; after
/// that a status is delivered only when it differs from the last one delivered, so flags that
/// change without changing the status (an `isDirect` that comes and goes) deliver nothing. For
/// each status the block runs first, then the delegate, then `didChangeNotification` is posted on
/// `NotificationCenter.default`, all on the manager's queue and in the order the states arose.
///
/// **The notification keeps Foundation in this module, and only here.** `didChangeNotification`
/// is a Foundation `Notification.Name`, so the manager lives in `NetworkReachability`, over
/// `NetworkReachabilityCore`, which has everything else and no Foundation: a program that imports
/// only the core (the `reachability` command) links none of it (BENCHMARKS.md, "The command's
/// binary").
///
/// **The queue.** AFNetworking delivers on the main queue. This manager delivers on its own
/// `queue`, a private serial queue unless `init(monitor:queue:)` is given one, because the main
/// queue of a Linux service often never runs: a server blocked in its own event loop, or one that
/// never calls `dispatchMain()`, would never hear of a change. Pass `DispatchQueue.main` to get
/// AFNetworking's behaviour in a program that does run the main queue.
///
/// `Sendable`: every stored property is a `let` of a Sendable type; the mutable state sits in one
/// `LockedState`, and no user code runs under it.
public final class ReachabilityManager: Sendable {
    /// The general path of this process's namespace, as AFNetworking's `sharedManager` watches the
    /// zero address: the better of the IPv4 (`0.0.0.0`) and IPv6 (`::`) default routes.
    ///
    /// If the engine cannot start (netlink unusable in this process), the shared manager still
    /// exists, never crashes, and its status stays `.unknown`; the failure is logged.
    public static let shared: ReachabilityManager = {
        let monitor = PathMonitor()
        if let error = monitor.setupError {
            Logger(label: "network-reachability").error(
                "ReachabilityManager.shared cannot monitor: \(error); its status stays unknown")
            return ReachabilityManager(unavailableMonitorOn: nil)
        }
        return ReachabilityManager(monitor: monitor)
    }()

    /// The name of the notification posted on `NotificationCenter.default` after each status
    /// change, with the manager as its object; AFNetworking's
    /// `AFNetworkingReachabilityDidChangeNotification`, with the same string.
    public static let didChangeNotification = Notification.Name("com.alamofire.networking.reachability.change")

    /// The `userInfo` key of the new status in `didChangeNotification`:
    /// `notification.userInfo?[ReachabilityManager.statusUserInfoKey] as? ReachabilityStatus`.
    /// AFNetworking's `AFNetworkingReachabilityNotificationStatusItem`, with the same string (its
    /// value there is an `NSNumber`; here it is the `ReachabilityStatus` itself).
    public static let statusUserInfoKey = "AFNetworkingReachabilityNotificationStatusItem"

    /// The queue on which the block, the delegate and the notification run.
    public let queue: DispatchQueue

    /// The monitor whose flags this manager turns into statuses; nil only for a `shared` manager
    /// whose engine could not start.
    private let monitor: PathMonitor?
    private let state = LockedState(State())

    private struct WeakDelegate {
        weak var delegate: (any ReachabilityManagerDelegate)?
    }

    private struct State {
        var status: ReachabilityStatus = .unknown
        /// The last status delivered since `startMonitoring()`; nil until the first one.
        var lastDelivered: ReachabilityStatus?
        var isMonitoring = false
        var block: (@Sendable (ReachabilityStatus) -> Void)?
        /// The last status the block was called with since it was set or monitoring started.
        var blockLastStatus: ReachabilityStatus?
        var delegate = WeakDelegate()
    }

    // MARK: - Create

    /// A manager over `monitor`, delivering on `queue`.
    ///
    /// The manager takes the monitor over: it sets the monitor's flags handler
    /// (`PathMonitor.setCallback(_:)`) and schedules and unschedules it. Make a monitor for any
    /// target, namespace or interface policy, e.g. `PathMonitor(namespace: .named("blue"))` or
    /// `PathMonitor(interfacePolicy: InterfacePolicy(expensiveInterfaceNames: ["lte0"]))`.
    /// - Parameters:
    ///   - monitor: the monitor to follow.
    ///   - queue: where the block, the delegate and the notification run; default (nil): a private
    ///     serial queue, not the main queue (see the type's documentation for why).
    public init(monitor: PathMonitor, queue: DispatchQueue? = nil) {
        self.monitor = monitor
        self.queue = queue ?? Self.makePrivateQueue()
    }

    private init(unavailableMonitorOn queue: DispatchQueue?) {
        self.monitor = nil
        self.queue = queue ?? Self.makePrivateQueue()
    }

    private static func makePrivateQueue() -> DispatchQueue {
        DispatchQueue(label: "network-reachability.manager")
    }

    /// A manager for a host name (`managerForDomain:`): the name is resolved and every address
    /// evaluated, as `PathMonitor(host:)` does.
    ///
    /// - Parameter domain: a host name such as `example.com`, or an IP literal.
    /// - Throws: `ReachabilityError.invalidHostName`, or a namespace error.
    public convenience init(domain: String) throws(ReachabilityError) {
        self.init(monitor: try PathMonitor(host: domain))
    }

    /// A manager for one address (`managerForAddress:`), given as a string.
    ///
    /// - Parameter address: an IPv4 or IPv6 address; `0.0.0.0` and `::` watch that family's default route.
    /// - Throws: `ReachabilityError.invalidAddress`, or a namespace error.
    public convenience init(address: String) throws(ReachabilityError) {
        self.init(monitor: try PathMonitor(address: address))
    }

    /// A manager for the address in a `sockaddr_in` or `sockaddr_in6` (`managerForAddress:`).
    ///
    /// - Parameter address: the socket address; it is copied.
    /// - Throws: `ReachabilityError.invalidSocketAddress` for any other family, or a namespace error.
    public convenience init(address: UnsafePointer<sockaddr>) throws(ReachabilityError) {
        self.init(monitor: try PathMonitor(address: address))
    }

    deinit {
        monitor?.unschedule()
        monitor?.setCallback(nil)
    }

    // MARK: - Status

    /// The current status: `.unknown` until `startMonitoring()`, which sets it before it returns;
    /// then the last status delivered.
    ///
    /// It is set on the manager's queue just before the block runs, and kept by `stopMonitoring()`.
    public var status: ReachabilityStatus {
        state.withLock { $0.status }
    }

    /// Whether `status` is `reachableViaWWAN` or `reachableViaWiFi`.
    public var isReachable: Bool { status.isReachable }

    /// Whether `status` is `reachableViaWWAN`.
    public var isReachableViaWWAN: Bool { status == .reachableViaWWAN }

    /// Whether `status` is `reachableViaWiFi` (on Linux: any interface that is not cellular).
    public var isReachableViaWiFi: Bool { status == .reachableViaWiFi }

    /// AFNetworking's text for `status`: "Unknown", "Not Reachable", "Reachable via WWAN" or "Reachable via WiFi".
    public var localizedNetworkReachabilityStatusString: String {
        status.localizedDescription
    }

    /// Told of each status change on the manager's queue, after the block and before the
    /// notification; held weakly.
    public var delegate: (any ReachabilityManagerDelegate)? {
        get { state.withLock { $0.delegate.delegate } }
        set { state.withLock { $0.delegate.delegate = newValue } }
    }

    /// Sets or clears the block called on the manager's queue with each status change
    /// (`setReachabilityStatusChangeBlock:`).
    ///
    /// A block set while monitoring, after the first status was delivered, is called with the
    /// current status on the queue (as `PathMonitor.pathUpdateHandler` is): a block set just after
    /// `startMonitoring()` may come after the first delivery and would otherwise miss it. It is
    /// never called twice in a row with the same status, nor before a host name's first resolution.
    ///
    /// - Parameter block: the block; nil clears it.
    public func setReachabilityStatusChangeBlock(_ block: (@Sendable (ReachabilityStatus) -> Void)?) {
        let redeliver = state.withLock { state -> Bool in
            state.block = block
            state.blockLastStatus = nil
            return block != nil && state.isMonitoring && state.lastDelivered != nil
        }
        guard redeliver else { return }
        // Read on the queue, not now: a newer status delivered meanwhile is not overtaken by an older one.
        queue.async { [self] in
            let call = state.withLock { state -> (@Sendable (ReachabilityStatus) -> Void, ReachabilityStatus)? in
                guard state.isMonitoring, let block = state.block, let status = state.lastDelivered,
                      state.blockLastStatus != status else { return nil }
                state.blockLastStatus = status
                return (block, status)
            }
            if let (block, status) = call { block(status) }
        }
    }

    // MARK: - Monitoring

    /// Starts monitoring, or restarts it: the current status is delivered first (even when it equals
    /// the last one, and even when it is "Not Reachable"), then each change.
    ///
    /// `status` is the current one when this returns, not `.unknown`: an address target costs one
    /// route lookup here. A host name whose first resolution has not finished keeps its status
    /// until the first callback. The block, the delegate and the notification of that first status
    /// still follow on the queue, once.
    public func startMonitoring() {
        guard let monitor else { return }
        // AFNetworking's startMonitoring stops first; once unschedule returns, no old callback starts.
        monitor.unschedule()
        let known = monitor.knownPathNow()
        state.withLock { state in
            state.isMonitoring = true
            state.lastDelivered = nil
            state.blockLastStatus = nil
            if let known { state.status = ReachabilityStatus(flags: known.flags) }
        }
        monitor.setCallback { [weak self] flags in
            self?.monitorDidUpdate(flags)
        }
        monitor.setDispatchQueue(queue)
    }

    /// Stops monitoring. When it returns, no block, delegate call or notification starts, unless it
    /// was called from inside one. `status` keeps its last value.
    public func stopMonitoring() {
        state.withLock { $0.isMonitoring = false }
        monitor?.unschedule()
    }

    /// On the manager's queue, for each new flags value of the monitor.
    private func monitorDidUpdate(_ flags: ReachabilityFlags) {
        let status = ReachabilityStatus(flags: flags)
        let callouts = state.withLock { state -> Callouts? in
            guard state.isMonitoring, state.lastDelivered != status else { return nil }
            state.lastDelivered = status
            state.status = status
            let blockIsDue = state.blockLastStatus != status
            state.blockLastStatus = status
            return Callouts(block: blockIsDue ? state.block : nil, delegate: state.delegate.delegate)
        }
        guard let callouts else { return }
        callouts.block?(status)
        callouts.delegate?.reachabilityManager(self, didChange: status)
        NotificationCenter.default.post(
            name: Self.didChangeNotification, object: self, userInfo: [Self.statusUserInfoKey: status])
    }

    private struct Callouts {
        var block: (@Sendable (ReachabilityStatus) -> Void)?
        var delegate: (any ReachabilityManagerDelegate)?
    }
}
