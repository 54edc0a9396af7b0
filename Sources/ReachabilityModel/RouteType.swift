import ReachabilitySystem
/// The kernel's `rtm_type` of a route.
package enum RouteType: Sendable, Hashable {
    case unicast, local, broadcast, anycast, multicast, blackhole, unreachable, prohibit, `throw`, other(UInt8)

    package init(rtnType: UInt8) {
        switch rtnType {
        case 1: self = .unicast
        case 2: self = .local
        case 3: self = .broadcast
        case 4: self = .anycast
        case 5: self = .multicast
        case 6: self = .blackhole
        case 7: self = .unreachable
        case 8: self = .prohibit
        case 9: self = .throw
        default: self = .other(rtnType)
        }
    }
}
