import ReachabilitySystem
// Apart from the words themselves, so the fuzz targets can build those without the path's types.
extension ConnectivityReason {
    /// Why a path is `none`: its unsatisfied reason in words (`no route` when there is none).
    package static func none(_ reason: NetworkPath.UnsatisfiedReason?) -> String {
        switch reason {
        case .noRoute, nil: noRoute
        case .unreachableRoute: "unreachable route"
        case .prohibitedRoute: "prohibited by route"
        case .blackholeRoute: "blackhole route"
        case .noCarrier: "no carrier"
        case .interfaceDown: "link down"
        case .localAddressUnavailable: "local address unavailable"
        case .requiredInterfaceUnavailable: "required interface unavailable"
        case .nameNotResolved: nameNotResolved
        case .noDNSServer: "no DNS server"
        case .namespaceUnavailable: "namespace unavailable"
        }
    }
}
