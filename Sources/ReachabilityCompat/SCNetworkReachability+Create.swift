#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// SCNetworkReachabilityCreateWith...: each makes a PathMonitor in `defaultNamespace`; on failure it
// returns nil and sets SCError(). The allocator is accepted for source compatibility and ignored.

/// Makes a target for a host name (`SCNetworkReachabilityCreateWithName`).
///
/// The name is resolved through the system resolver and every address evaluated; an IP literal is
/// watched as an address. The target watches `ReachabilityCompat.defaultNamespace`.
/// - Parameters:
///   - allocator: ignored; pass nil or `kCFAllocatorDefault`.
///   - nodename: a NUL-terminated host name such as `example.com`; a Swift `String` converts.
/// - Returns: the target, or nil with `SCError()` set: `kSCStatusInvalidArgument` for a name that
///   is not valid UTF-8 or not a host name, a namespace error's code otherwise.
public func SCNetworkReachabilityCreateWithName(_ allocator: OpaquePointer?, _ nodename: UnsafePointer<CChar>) -> SCNetworkReachability? {
    guard let name = String(validatingCString: nodename) else {
        setSCError(Int32(kSCStatusInvalidArgument))
        return nil
    }
    return makeTarget { namespace throws(ReachabilityError) in
        try PathMonitor(host: name, namespace: namespace)
    }
}

/// Makes a target for the address in a `sockaddr_in` or `sockaddr_in6`
/// (`SCNetworkReachabilityCreateWithAddress`); a zero address watches that family's default route.
///
/// - Parameters:
///   - allocator: ignored; pass nil or `kCFAllocatorDefault`.
///   - address: the socket address; it is copied. Its length byte (`sin_len`, which Linux keeps nowhere) is not read.
/// - Returns: the target, or nil with `SCError()` set: `kSCStatusInvalidArgument` for a family
///   other than `AF_INET` or `AF_INET6`, a namespace error's code otherwise.
public func SCNetworkReachabilityCreateWithAddress(_ allocator: OpaquePointer?, _ address: UnsafePointer<sockaddr>) -> SCNetworkReachability? {
    makeTarget { namespace throws(ReachabilityError) in
        try PathMonitor(address: address, namespace: namespace)
    }
}

/// Makes a target for the path from a local to a remote address
/// (`SCNetworkReachabilityCreateWithAddressPair`): the route of `ip route get REMOTE from LOCAL`.
///
/// - Parameters:
///   - allocator: ignored; pass nil or `kCFAllocatorDefault`.
///   - localAddress: the local address, or nil.
///   - remoteAddress: the remote address, or nil.
/// - Returns: the target, or nil with `SCError()` set to `kSCStatusInvalidArgument` when both
///   addresses are nil (as Apple's) or either has a bad family, a namespace error's code otherwise.
public func SCNetworkReachabilityCreateWithAddressPair(
    _ allocator: OpaquePointer?, _ localAddress: UnsafePointer<sockaddr>?, _ remoteAddress: UnsafePointer<sockaddr>?
) -> SCNetworkReachability? {
    guard localAddress != nil || remoteAddress != nil else {
        setSCError(Int32(kSCStatusInvalidArgument))
        return nil
    }
    return makeTarget { namespace throws(ReachabilityError) in
        try PathMonitor(localAddress: localAddress, remoteAddress: remoteAddress, namespace: namespace)
    }
}

/// Runs `make` in `defaultNamespace`; nil and `SCError()` on failure.
private func makeTarget(_ make: (NetworkNamespace) throws(ReachabilityError) -> PathMonitor) -> PathMonitor? {
    do {
        return try make(defaultNamespace)
    } catch {
        setSCError(error)
        return nil
    }
}
