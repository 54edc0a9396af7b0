import ReachabilityDelivery
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
extension PathMonitor {
    /// The path now without waiting for anything: what `ReachabilityManager.startMonitoring()`
    /// sets its status from before it returns. nil while a host name's first resolution runs
    /// (the status then stays as it was until the first callback).
    package func knownPathNow() -> NetworkPath? {
        guard let engine else { return .unsatisfied(.namespaceUnavailable) }
        return engine.readIfKnown(core.target)
    }
}
