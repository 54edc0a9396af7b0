import ReachabilitySystem
@_exported import Dispatch
@_exported import NetworkReachability
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#endif

// Apple's names over NetworkReachability, so that code written for SystemConfiguration or
// Network moves to Linux with only its import line changed. Like `import SystemConfiguration`,
// `import ReachabilityCompat` brings the C library (`sockaddr_in`, `AF_INET`) and Dispatch with it.

/// `SCNetworkReachability`: a handle on a target whose reachability is watched.
public typealias SCNetworkReachability = PathMonitor
/// `SCNetworkReachabilityFlags`, with Apple's bit values and member names.
public typealias SCNetworkReachabilityFlags = ReachabilityFlags
/// `SCNetworkReachabilityCallBack`: a C function; a closure literal that captures nothing converts
/// to it. Its first argument is the target as an `OpaquePointer` (Apple passes the
/// `SCNetworkReachability`): `SCNetworkReachabilityGetFlags` accepts it as it is.
public typealias SCNetworkReachabilityCallBack = PathMonitor.Callback

/// Stands for Apple's `kCFAllocatorDefault`, so that `SCNetworkReachabilityCreateWithName(kCFAllocatorDefault, ...)`
/// compiles; the allocator arguments are ignored.
public var kCFAllocatorDefault: OpaquePointer? { nil }

private let defaultNamespaceSetting = LockedState<NetworkNamespace>(.current)

/// The network namespace that the `SCNetworkReachabilityCreateWith...` functions (and
/// `NWPathMonitor()`) watch; default `.current`, the process's own.
///
/// Not an Apple name: Apple's functions take no namespace, so this process-wide setting chooses
/// it. Reading and writing it is thread-safe; a monitor keeps the namespace it was made with.
/// Spell it `ReachabilityCompat.defaultNamespace` to make its origin plain. To watch one
/// namespace with Apple's names, it is usually simpler to run the whole program in it
/// (`ip netns exec NAME program`).
public var defaultNamespace: NetworkNamespace {
    get { defaultNamespaceSetting.withLock { $0 } }
    set { defaultNamespaceSetting.withLock { $0 = newValue } }
}

extension PathMonitor.Context {
    /// An empty context, as `SCNetworkReachabilityContext()`: version 0 and every field nil.
    public init() {
        self.init(version: 0, info: nil, retain: nil, release: nil, copyDescription: nil)
    }
}
