extension PathMonitor {
    /// The path now, as `currentPath` gives it, suspending the task instead of blocking its thread.
    ///
    /// For a host name that was never resolved it waits for the first resolution, up to the
    /// options' `firstResolutionTimeout`, without holding a thread of the cooperative pool; every
    /// other read is one hop onto the engine's queue.
    public func fetchCurrentPath() async -> NetworkPath {
        guard let engine else { return currentPath }
        if case .host(let name) = core.target, let hostOptions {
            await engine.firstResolution(of: name, timeout: hostOptions.firstResolutionTimeout)
        }
        if core.isActive {
            // Scheduled: the engine keeps `current` fresh, but a name's first answer may still be on its way in.
            guard case .host = core.target else { return core.current }
            return core.composingConnectivity(await engine.evaluate(core.target)) // with the probe's answer, as currentPath
        }
        let path = await engine.evaluate(core.target)
        core.storeIfInactive(path)
        return core.composingConnectivity(path) // with the probe's answer, as currentPath
    }
}
