#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// SCError(): the status of the last SystemConfiguration call that failed on this thread, with
// Apple's codes. Like Apple's, the codes are `Int` (imported from an anonymous C enum) while
// `SCError()` returns `Int32`: compare with `SCError() == Int32(kSCStatusInvalidArgument)`.

/// Success.
public let kSCStatusOK: Int = 0
/// A failure with no more specific code: here, a netlink failure.
public let kSCStatusFailed: Int = 1001
/// An invalid argument: a host name, address or `sockaddr` that cannot be a target, or a call
/// that the target's schedule does not allow.
public let kSCStatusInvalidArgument: Int = 1002
/// Permission denied: here, a namespace that may not be entered (run as root or with CAP_SYS_ADMIN).
public let kSCStatusAccessError: Int = 1003
/// Apple's "no such key"; never set here.
public let kSCStatusNoKey: Int = 1004
/// Apple's "key already defined"; never set here.
public let kSCStatusKeyExists: Int = 1005
/// Apple's "lock already held"; never set here.
public let kSCStatusLocked: Int = 1006
/// Apple's "lock required"; never set here.
public let kSCStatusNeedLock: Int = 1007
/// Apple's "configuration daemon session not active"; never set here.
public let kSCStatusNoStoreSession: Int = 2001
/// Apple's "configuration daemon not available"; never set here.
public let kSCStatusNoStoreServer: Int = 2002
/// Apple's "notifier active"; never set here.
public let kSCStatusNotifierActive: Int = 2003
/// Apple's "preferences session not active"; never set here.
public let kSCStatusNoPrefsSession: Int = 3001
/// Apple's "preferences update in progress"; never set here.
public let kSCStatusPrefsBusy: Int = 3002
/// Apple's "configuration file not found"; never set here.
public let kSCStatusNoConfigFile: Int = 3003
/// Apple's "no such link"; never set here.
public let kSCStatusNoLink: Int = 3004
/// Apple's "stale object"; never set here.
public let kSCStatusStale: Int = 3005
/// Apple's "maximum link count exceeded"; never set here.
public let kSCStatusMaxLink: Int = 3006
/// The reachability of the target cannot be determined: `SCNetworkReachabilityGetFlags` failed.
public let kSCStatusReachabilityUnknown: Int = 4001
/// Apple's "network service for connection not available"; never set here.
public let kSCStatusConnectionNoService: Int = 5001
/// Apple's "connection information not available"; never set here.
public let kSCStatusConnectionIgnore: Int = 5002

/// The thread's last error, stored in the pointer value of a pthread key (no allocation).
private let lastErrorKey: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, nil)
    precondition(result == 0, "pthread_key_create failed: \(result)")
    return key
}()

/// Sets the status that `SCError()` returns on this thread.
func setSCError(_ status: Int32) {
    pthread_setspecific(lastErrorKey, UnsafeRawPointer(bitPattern: Int(status)))
}

/// Sets `SCError()` for a failure of the library.
func setSCError(_ error: ReachabilityError) {
    setSCError(scStatus(for: error))
}

/// The `SCError()` code of a library error.
///
/// Invalid input is `kSCStatusInvalidArgument`; a namespace that does not exist is `ENOENT` and
/// one that may not be entered `kSCStatusAccessError` (EPERM, EACCES) or its errno, since Apple's
/// `SCError()` also returns errno values; a netlink failure is `kSCStatusFailed`; a failing system
/// call its errno.
func scStatus(for error: ReachabilityError) -> Int32 {
    switch error {
    case .invalidAddress, .invalidSocketAddress, .invalidHostName:
        return Int32(kSCStatusInvalidArgument)
    case .invalidProbe:
        return Int32(kSCStatusInvalidArgument)
    case .namespaceNotFound:
        return ENOENT
    case .namespaceNotEnterable(_, _, let code):
        return (code == EPERM || code == EACCES) ? Int32(kSCStatusAccessError) : code
    case .netlink:
        return Int32(kSCStatusFailed)
    case .system(_, let code):
        return code
    }
}

/// The status of the last call of this module that failed on the calling thread
/// (`kSCStatusOK` if none has); Apple's `SCError()`.
///
/// A create function that returns nil, and a function that returns false, set it. Like Apple's,
/// success does not reset it. The value is one of the `kSCStatus...` codes or an errno value;
/// `SCErrorString(_:)` gives its text.
public func SCError() -> Int32 {
    Int32(truncatingIfNeeded: Int(bitPattern: pthread_getspecific(lastErrorKey)))
}

/// The text of an `SCError()` status, as Apple's `SCErrorString(_:)`: Apple's message for a
/// `kSCStatus...` code, `strerror`'s for an errno value.
///
/// - Parameter status: a status from `SCError()`.
/// - Returns: a NUL-terminated string that stays valid for the life of the process.
public func SCErrorString(_ status: Int32) -> UnsafePointer<CChar> {
    if let message = scMessage(status) {
        return UnsafeRawPointer(message.utf8Start).assumingMemoryBound(to: CChar.self)
    }
    if status > 0, status < 1000 {
        // glibc's strerror returns its static table entry for a known errno.
        return UnsafePointer(strerror(status))
    }
    let unknown: StaticString = "Unknown error"
    return UnsafeRawPointer(unknown.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Apple's text for its own codes. String literals are stored NUL-terminated.
private func scMessage(_ status: Int32) -> StaticString? {
    switch Int(status) {
    case kSCStatusOK: "Success!"
    case kSCStatusFailed: "Failed!"
    case kSCStatusInvalidArgument: "Invalid argument"
    case kSCStatusAccessError: "Permission denied"
    case kSCStatusNoKey: "No such key"
    case kSCStatusKeyExists: "Key already defined"
    case kSCStatusLocked: "Lock already held"
    case kSCStatusNeedLock: "Lock required for this operation"
    case kSCStatusNoStoreSession: "Configuration daemon session not active"
    case kSCStatusNoStoreServer: "Configuration daemon not (no longer) available"
    case kSCStatusNotifierActive: "Notifier is currently active"
    case kSCStatusNoPrefsSession: "Preferences session not active"
    case kSCStatusPrefsBusy: "Preferences update currently in progress"
    case kSCStatusNoConfigFile: "Configuration file not found"
    case kSCStatusNoLink: "No such link"
    case kSCStatusStale: "Write attempted on stale version of object"
    case kSCStatusMaxLink: "Maximum link count exceeded"
    case kSCStatusReachabilityUnknown: "Network reachability cannot be determined"
    case kSCStatusConnectionNoService: "Network service for connection not available"
    case kSCStatusConnectionIgnore: "Network connection information not available at this time"
    default: nil
    }
}
