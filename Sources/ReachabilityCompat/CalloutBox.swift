// The Swift `SCNetworkReachabilityCallBack` on the core's C callback face.
import ReachabilityDelivery

/// A callout and the user's retained context, passed as the `info` of the C trampoline's context.
///
/// The core's `CallbackContext` holds the box (+1 through `retain`, released once through
/// `release`: when the callback is replaced or cleared, or the target goes away, after a callback
/// in flight returns); the box holds the user's context, whose own `release` runs when the box goes.
final class CalloutBox: Sendable {
    let callout: SCNetworkReachabilityCallBack
    let userContext: CallbackContext?

    init(_ callout: @escaping SCNetworkReachabilityCallBack, _ userContext: CallbackContext?) {
        self.callout = callout
        self.userContext = userContext
    }

    /// The core's context for this box: it retains the box, describes the user's `info`.
    var callbackContext: CallbackContext {
        let context = PathMonitor.Context(
            version: 0, info: Unmanaged.passUnretained(self).toOpaque(),
            retain: { info in
                _ = Unmanaged<CalloutBox>.fromOpaque(info).retain()
                return info
            },
            release: { info in Unmanaged<CalloutBox>.fromOpaque(info).release() },
            copyDescription: nil
        )
        let userContext = self.userContext
        return CallbackContext(context) { _ in userContext?.describe() }
    }

    /// Calls the box's callout with the target and the user's `info`.
    static let trampoline: PathMonitor.Callback = { target, flags, info in
        guard let info else { return }
        let box = Unmanaged<CalloutBox>.fromOpaque(info).takeUnretainedValue()
        let monitor = Unmanaged<PathMonitor>.fromOpaque(UnsafeRawPointer(target)).takeUnretainedValue()
        box.callout(monitor, flags, box.userContext?.info)
    }
}
