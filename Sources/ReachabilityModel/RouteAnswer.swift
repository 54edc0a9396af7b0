import ReachabilitySystem
/// What the kernel answered for a destination: a route, or the errno it refused with.
///
/// The errno says which kind of route stopped the packet: ENETUNREACH no route (or `throw`),
/// EHOSTUNREACH `unreachable`, EINVAL `blackhole`, EACCES `prohibit`.
package enum RouteAnswer: Sendable, Hashable {
    case route(RouteEntry)
    case failure(errno: Int32)
}
