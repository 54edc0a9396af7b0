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
/// `SCNetworkReachabilityCallBack`: called with the target, its flags and the context's `info`, as
/// Apple's. A closure literal (`{ _, flags, info in ... }`), one that names the first parameter's
/// type (`(target: SCNetworkReachability, flags: SCNetworkReachabilityFlags, info:
/// UnsafeMutableRawPointer?)`) and a global function of that shape all convert to it.
///
/// A `@Sendable` Swift function rather than Apple's `@convention(c)`: a C function type cannot
/// take a Swift class, and the target is one here. `SCNetworkReachabilitySetCallback` still takes
/// `PathMonitor.Callback`, the C function type whose first parameter is an `OpaquePointer`.
public typealias SCNetworkReachabilityCallBack = @Sendable (SCNetworkReachability, SCNetworkReachabilityFlags, UnsafeMutableRawPointer?) -> Void

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
