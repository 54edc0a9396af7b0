import CNetlink

/// A failure reported by libnl: its positive `NLE_*` code and the function that returned it.
///
/// libnl retries EINTR itself and folds errno into its own codes, so one check and no retry
/// (`../shared/design/style.md`, "Wrapping C calls"). Typed throws stay inside `Netlink/`;
/// the boundary converts to `ReachabilityError`.
struct NetlinkError: Error, Equatable {
    /// libnl's code, positive (`NLE_NOMEM` and so on).
    var code: Int32
    /// The libnl function that failed.
    var function: String

    static func noMemory(_ function: String) -> NetlinkError {
        NetlinkError(code: Int32(NLE_NOMEM), function: function)
    }

    /// libnl's text for the code (`nl_geterror`).
    var message: String { String(cString: nl_geterror(code)) }

    var reachabilityError: ReachabilityError {
        .netlink(function: function, code: code, message: message)
    }
}

/// Runs the result of a libnl call through its error convention: negative is `-NLE_*`.
///
/// - Returns: the non-negative result.
@discardableResult
func check(_ function: StaticString, _ result: CInt) throws(NetlinkError) -> CInt {
    if result < 0 {
        throw NetlinkError(code: -result, function: "\(function)")
    }
    return result
}
