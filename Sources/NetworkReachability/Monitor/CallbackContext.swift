/// The user's context pointer of a C-style callback, retained with the user's `retain` when it was
/// set and released with the user's `release` exactly once: when the last holder lets go.
///
/// A delivery in flight holds the box, so replacing or clearing the callback (or releasing the
/// monitor) during a callback releases the context only after that callback returned.
/// `ReachabilityCompat` holds its contexts in it too (`package` access).
///
/// `@unchecked Sendable`: `info` is the user's opaque pointer, never dereferenced here; both
/// stored properties are immutable.
package final class CallbackContext: @unchecked Sendable {
    package let info: UnsafeMutableRawPointer?
    private let release: (@convention(c) (UnsafeRawPointer) -> Void)?

    /// Calls the context's `retain` on its `info` (when both are set) and keeps what it returned.
    package init(_ context: PathMonitor.Context) {
        if let info = context.info, let retain = context.retain {
            self.info = UnsafeMutableRawPointer(mutating: retain(UnsafeRawPointer(info)))
        } else {
            self.info = context.info
        }
        self.release = context.release
    }

    deinit {
        if let info, let release {
            release(UnsafeRawPointer(info))
        }
    }
}
