import ReachabilitySystem
extension NetworkPath {
    /// The link quality of the interface the target's route leaves by (``NetworkInterface/linkQuality``);
    /// `unknown` without a route. A change of class is a change of the path.
    public var linkQuality: LinkQuality {
        interface?.linkQuality ?? .unknown
    }

    /// Whether the route's interface is named ultra-constrained by the `InterfacePolicy`.
    public var isUltraConstrained: Bool {
        interface?.isUltraConstrained ?? false
    }
}
