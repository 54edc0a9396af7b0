import ReachabilityConnectivity
import ReachabilityEngine
import ReachabilityModel
@testable import ReachabilityProbing
import ReachabilitySystem

/// The engines the unit tests' probers run on, kept for the test process's life: a prober holds
/// only its engine's loop, and the loop ends with the engine.
private let engines = LockedState<[EngineHandle]>([])

extension ConnectivityProber {
    /// A prober of `probe` for the unit tests, on an engine of `namespace`: `passive` sends
    /// nothing, `run` answers in place of `ProbeRunner`.
    convenience init(probe: ConnectivityProbe?, namespace: NetworkNamespace, passive: Bool = false, run: Run? = nil,
                     fetchesAPIAlone: Bool = false) {
        var seam = ProberSeam()
        seam.isPassive = passive
        seam.run = run
        let engine = try? EngineRegistry.engine(anyPolicyIn: namespace)
        if let engine { engines.withLock { $0.append(engine) } }
        self.init(configuration: ProberConfiguration(probe: probe, fetchesAPIAlone: fetchesAPIAlone), namespace: namespace,
                  loop: engine?.loop, resolver: engine?.resolverPool, seam: seam)
    }
}
