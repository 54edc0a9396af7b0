import ReachabilityDelivery
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
extension PathMonitor {
    /// The path now, as `currentPath` gives it, suspending the task instead of blocking its thread.
    ///
    /// For a host name that was never resolved it waits for the first resolution, up to the
    /// options' `firstResolutionTimeout`, without holding a thread of the cooperative pool; every
    /// other read is one post to the engine's loop.
    public func fetchCurrentPath() async -> NetworkPath {
        guard let engine else { return currentPath }
        if case .host(let name) = core.target, let hostOptions {
            await engine.firstResolution(of: name, timeout: hostOptions.firstResolutionTimeout)
        }
        let evaluated = readNeedsEvaluation ? await engine.read(core.target) : nil
        return pathForRead(evaluated: evaluated)
    }
}
