import ReachabilityDelivery
import Foundation
#if canImport(CoreFoundation)
// Imported (not re-exported) so that the `CFString` below shadows CoreFoundation's in a file that
// imports both: Linux's CoreFoundation has a `CFString`, but a Swift `String` does not convert to it.
import CoreFoundation
#endif

#if !canImport(Darwin)
/// Apple's `CFString`, as Foundation's `NSString`: so that `Unmanaged.passRetained(text as CFString)`
/// in a context's `copyDescription` compiles on Linux, where a `String` bridges to `NSString` only.
public typealias CFString = NSString
#endif

/// `SCNetworkReachabilityContext`, with the field types of Apple's Swift overlay: the `info`
/// pointer handed to the callback, its `retain` and `release`, and `copyDescription`.
///
/// `SCNetworkReachabilitySetCallback` copies it: `retain` is called on `info` once, `release`
/// exactly once when the callback is replaced or cleared or the target goes away, and
/// `copyDescription` whenever the target is described (`String(describing: target)`), its
/// retained result released at once, as Apple does.
public struct SCNetworkReachabilityContext {
    /// Must be 0, as Apple's (a `CFIndex` there).
    public var version: Int
    /// Passed to the callback as its third argument.
    public var info: UnsafeMutableRawPointer?
    /// Called once with `info` when the callback is set; its result is what the callback receives.
    public var retain: (@convention(c) (UnsafeRawPointer) -> UnsafeRawPointer)?
    /// Called exactly once with the retained `info`, when the callback is replaced or cleared or the target goes away.
    public var release: (@convention(c) (UnsafeRawPointer) -> Void)?
    /// Describes `info` in the target's description; returns a retained string, which is released after use.
    public var copyDescription: ((UnsafeRawPointer) -> Unmanaged<CFString>)?

    /// Makes a context, as Apple's memberwise initialiser.
    public init(
        version: Int, info: UnsafeMutableRawPointer?,
        retain: (@convention(c) (UnsafeRawPointer) -> UnsafeRawPointer)?,
        release: (@convention(c) (UnsafeRawPointer) -> Void)?,
        copyDescription: ((UnsafeRawPointer) -> Unmanaged<CFString>)?
    ) {
        self.version = version
        self.info = info
        self.retain = retain
        self.release = release
        self.copyDescription = copyDescription
    }

    /// An empty context: version 0 and every field nil.
    public init() {
        self.init(version: 0, info: nil, retain: nil, release: nil, copyDescription: nil)
    }

    /// The same context in the core's terms, and what describes its retained `info`.
    var callbackContext: CallbackContext {
        let context = PathMonitor.Context(version: version, info: info, retain: retain, release: release)
        guard let copyDescription else { return CallbackContext(context) }
        return CallbackContext(context) { info in
            // `takeRetainedValue` balances the retain that `copyDescription` handed over.
            copyDescription(info).takeRetainedValue() as String
        }
    }
}
