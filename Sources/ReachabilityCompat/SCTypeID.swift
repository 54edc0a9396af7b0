import Foundation
#if canImport(CoreFoundation)
// Imported (not re-exported) so that the names below shadow CoreFoundation's in a file that imports both.
import CoreFoundation
#endif

// SCNetworkReachabilityGetTypeID() and SCCopyLastError(), with the CoreFoundation types they return.

#if !canImport(Darwin)
/// Apple's `CFTypeID`: an unsigned integer naming a CoreFoundation type.
public typealias CFTypeID = UInt
/// Apple's `CFError`, as Foundation's `NSError` (to which Apple's bridges): `code`, `domain`,
/// and `as Error` work as they do there.
public typealias CFError = NSError
#endif

/// The error domain of `SCCopyLastError()`'s errors, as Apple's `kCFErrorDomainSystemConfiguration`.
public let kCFErrorDomainSystemConfiguration = "com.apple.SystemConfiguration"

/// The type identifier of every `SCNetworkReachability` (`SCNetworkReachabilityGetTypeID`).
///
/// A fixed value (`0x5343_4e52`, "SCNR"): Linux has no CoreFoundation type registry. Compare a
/// target with `target is SCNetworkReachability` rather than through `CFGetTypeID`.
public func SCNetworkReachabilityGetTypeID() -> CFTypeID {
    0x5343_4E52
}

/// The last error of this module on the calling thread, as an error (`SCCopyLastError`): domain
/// `kCFErrorDomainSystemConfiguration`, code `SCError()` (`kSCStatusOK` when none), and
/// `SCErrorString`'s text as its description.
public func SCCopyLastError() -> CFError {
    let status = SCError()
    return NSError(domain: kCFErrorDomainSystemConfiguration, code: Int(status),
                   userInfo: [NSLocalizedDescriptionKey: String(cString: SCErrorString(status))])
}
