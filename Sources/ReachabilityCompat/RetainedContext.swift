/// The `info` of an `SCNetworkReachabilityContext`, retained with the context's `retain` when the
/// callback is set and released with its `release` exactly once, when the last holder lets go:
/// the callback is replaced or cleared, or the target goes away.
///
/// A callback in flight holds the box too, so a context replaced during a callback is released
/// after that callback returns.
///
/// `@unchecked Sendable`: `info` is the user's opaque pointer, never dereferenced here; both
/// stored properties are immutable.
final class RetainedContext: @unchecked Sendable {
    let info: UnsafeMutableRawPointer?
    private let release: (@convention(c) (UnsafeRawPointer) -> Void)?

    /// Calls `context.retain` on `context.info` (when both are set) and keeps what it returned,
    /// which is what the callback receives, as Apple's does.
    init(_ context: SCNetworkReachabilityContext?) {
        guard let context else {
            self.info = nil
            self.release = nil
            return
        }
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
