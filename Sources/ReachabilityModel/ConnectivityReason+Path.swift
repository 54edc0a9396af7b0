import ReachabilitySystem
// Apart from the words themselves, so the fuzz targets can build those without the path's types.
extension ConnectivityReason {
    /// Why a path is `none`: its unsatisfied reason in words (`no route` when there is none).
    package static func none(_ reason: NetworkPath.UnsatisfiedReason?) -> String {
        switch reason {
        case .noRoute, nil: noRoute
        case .linkDown: "link down"
        case .interfaceDown: "interface down"
        case .localAddressUnavailable: "local address unavailable"
        case .requiredInterfaceUnavailable: "required interface unavailable"
        case .nameNotResolved: nameNotResolved
        case .noDNSServer: "no DNS server"
        case .namespaceUnavailable: "namespace unavailable"
        }
    }
}
