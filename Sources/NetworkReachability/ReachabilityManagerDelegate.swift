/// Told of each status change of a `ReachabilityManager`, for those who prefer a delegate to a
/// block or a notification.
///
/// Called on the manager's queue, after the status-change block and before
/// `ReachabilityManager.didChangeNotification` is posted. The manager holds its delegate weakly.
public protocol ReachabilityManagerDelegate: AnyObject, Sendable {
    /// The status of `manager` changed to `status` (or, first after `startMonitoring()`, is known).
    ///
    /// - Parameters:
    ///   - manager: the manager whose status changed; `manager.status` is already `status`.
    ///   - status: the new status, never `.unknown`.
    func reachabilityManager(_ manager: ReachabilityManager, didChange status: ReachabilityStatus)
}
