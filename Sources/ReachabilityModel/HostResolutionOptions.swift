import ReachabilitySystem
/// How a host-name monitor resolves its name.
public struct HostResolutionOptions: Sendable, Hashable {
    /// How often the name is resolved again to follow changes of its records; default 60 s.
    /// Resolution also runs again when the network or the resolver's configuration changes.
    public var reresolveInterval: Duration
    /// How long `flags()` and `currentPath` wait for the first resolution of a name; default 5 s.
    /// After it, a name still unresolved reports `nameNotResolved` until an answer comes.
    public var firstResolutionTimeout: Duration

    /// - Parameters:
    ///   - reresolveInterval: default 60 seconds; values under 100 ms count as 100 ms.
    ///   - firstResolutionTimeout: default 5 seconds.
    public init(reresolveInterval: Duration = .seconds(60), firstResolutionTimeout: Duration = .seconds(5)) {
        self.reresolveInterval = reresolveInterval
        self.firstResolutionTimeout = firstResolutionTimeout
    }

    public static let `default` = HostResolutionOptions()
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to what `DispatchTimeInterval` holds.
    package var nanosecondsClamped: Int {
        let (seconds, attoseconds) = components
        let total = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        return Int(max(0, min(total, Double(Int.max / 2))))
    }
}
