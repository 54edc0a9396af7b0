import ReachabilityDelivery
import ReachabilityModel

extension CallbackContext {
    /// Calls the context's `retain` on its `info` (when both are set) and keeps what it returned.
    /// `describe` (`ReachabilityCompat` passes one over Apple's `copyDescription`) takes the
    /// place of the context's C-string `copyDescription`.
    package convenience init(_ context: PathMonitor.Context, describe: ((UnsafeRawPointer) -> String?)? = nil) {
        let copyDescription = context.copyDescription
        // The C string stays the caller's: it is copied, never freed.
        let described = describe ?? copyDescription.map { copy in { info in copy(info).map { String(cString: $0) } } }
        self.init(info: context.info, retain: context.retain, release: context.release, describe: described)
    }
}

/// The delegate face of a monitor: holds the user's delegate weakly, as `PathMonitor.delegate`
/// promises, and tells it of the monitor.
final class DelegateFace: MonitorDelegateFace {
    weak let delegate: (any PathMonitorDelegate)?

    init(_ delegate: any PathMonitorDelegate) {
        self.delegate = delegate
    }

    func monitor(_ owner: any MonitorOwner, didUpdate path: NetworkPath) {
        guard let monitor = owner as? PathMonitor, let delegate else { return }
        delegate.pathMonitor(monitor, didUpdate: path)
    }
}
