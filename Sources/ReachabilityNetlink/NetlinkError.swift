import ReachabilityModel
import ReachabilitySystem
import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// A failure reported by libnl: its positive `NLE_*` code and the function that returned it.
///
/// libnl retries EINTR itself (`nl_recv` loops on it) and folds errno into its own codes, so one
/// check and no retry, unlike a raw syscall. Typed throws stay inside `Netlink/`;
/// the boundary converts to `ReachabilityError`.
package struct NetlinkError: Error, Equatable {
    /// libnl's code, positive (`NLE_NOMEM` and so on).
    package var code: Int32
    /// The libnl function that failed, or the resource that could not be made.
    package var function: String
    /// The system's errno behind the failure when it was a resource that ran out (a socket with
    /// EMFILE, say): libnl folds most of them into `NLE_FAILURE`. 0 when there is none.
    package var errno: Int32 = 0

    /// A resource the system refused: reported as `ReachabilityError.system` with its errno.
    package static func system(_ resource: String, errno: Int32) -> NetlinkError {
        NetlinkError(code: Int32(NLE_FAILURE), function: resource, errno: errno)
    }

    package static func noMemory(_ function: String) -> NetlinkError {
        NetlinkError(code: Int32(NLE_NOMEM), function: function)
    }

    /// libnl's text for the code (`nl_geterror`).
    package var message: String { String(cString: nl_geterror(code)) }

    package var reachabilityError: ReachabilityError {
        errno != 0 ? .system(function: function, errno: errno) : .netlink(function: function, code: code, message: message)
    }
}

/// Runs a libnl call that makes a descriptor: a failure keeps the errno behind it when that is a
/// resource running out, so the report names it (libnl itself would say "Unspecific failure").
@discardableResult
package func checkResource(_ function: StaticString, _ resource: String, _ call: () -> CInt) throws(NetlinkError) -> CInt {
    Glibc.errno = 0
    let result = call()
    let code = Glibc.errno
    if result < 0 {
        if [EMFILE, ENFILE, ENOMEM, ENOBUFS, EAGAIN].contains(code) { throw .system("\(function) (\(resource))", errno: code) }
        throw NetlinkError(code: -result, function: "\(function)")
    }
    return result
}

/// Runs the result of a libnl call through its error convention: negative is `-NLE_*`.
///
/// - Returns: the non-negative result.
@discardableResult
package func check(_ function: StaticString, _ result: CInt) throws(NetlinkError) -> CInt {
    if result < 0 {
        throw NetlinkError(code: -result, function: "\(function)")
    }
    return result
}
