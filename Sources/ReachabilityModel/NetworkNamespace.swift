import ReachabilitySystem
/// The network namespace a monitor watches. Monitors of one namespace share one engine.
public enum NetworkNamespace: Sendable, Hashable, CustomStringConvertible {
    /// The namespace of the process (`/proc/self/ns/net`).
    case current
    /// A namespace made by `ip netns add NAME`: the file `/run/netns/NAME`.
    case named(String)
    /// Any nsfs file, such as `/proc/PID/ns/net` or a bind mount of one.
    case path(String)

    /// The nsfs file that names the namespace.
    public var path: String {
        switch self {
        case .current: "/proc/self/ns/net"
        case .named(let name): "/run/netns/\(name)"
        case .path(let path): path
        }
    }

    public var description: String {
        switch self {
        case .current: "current"
        case .named(let name): name
        case .path(let path): path
        }
    }
}
