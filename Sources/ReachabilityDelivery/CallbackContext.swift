import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
/// The user's context pointer of a C-style callback, retained with the user's `retain` when it was
/// set and released with the user's `release` exactly once: when the last holder lets go.
///
/// A delivery in flight holds the box, so replacing or clearing the callback (or releasing the
/// monitor) during a callback releases the context only after that callback returned.
/// `ReachabilityCompat` makes its contexts with it too (`package` access), with Apple's `copyDescription`.
///
/// `@unchecked Sendable`: `info` is the user's opaque pointer, never dereferenced here; both
/// stored properties are immutable.
package final class CallbackContext: @unchecked Sendable {
    package let info: UnsafeMutableRawPointer?
    private let release: (@convention(c) (UnsafeRawPointer) -> Void)?
    /// Describes `info`, as the context's `copyDescription` does; nil when it has none.
    private let describeInfo: ((UnsafeRawPointer) -> String?)?

    /// Calls `retain` on `info` (when both are set) and keeps what it returned; `release` lets it
    /// go when the last holder does. (The public layer makes one from a `PathMonitor.Context`.)
    package init(info: UnsafeMutableRawPointer?, retain: (@convention(c) (UnsafeRawPointer) -> UnsafeRawPointer)?,
                 release: (@convention(c) (UnsafeRawPointer) -> Void)?, describe: ((UnsafeRawPointer) -> String?)?) {
        if let info, let retain {
            self.info = UnsafeMutableRawPointer(mutating: retain(UnsafeRawPointer(info)))
        } else {
            self.info = info
        }
        self.release = release
        self.describeInfo = describe
    }

    /// The description of the retained `info`, for the target's own description; nil without one.
    package func describe() -> String? {
        guard let info, let describeInfo else { return nil }
        return describeInfo(UnsafeRawPointer(info))
    }

    deinit {
        if let info, let release {
            release(UnsafeRawPointer(info))
        }
    }
}
