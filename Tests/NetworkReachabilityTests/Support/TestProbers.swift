import ReachabilityConnectivity
import ReachabilityEngine
import ReachabilityModel
@testable import ReachabilityProbing

extension ConnectivityProber {
    /// A prober of `probe` for the unit tests, on an engine of `namespace`: `passive` sends
    /// nothing, `run` answers in place of `ProbeRunner`.
    convenience init(probe: ConnectivityProbe?, namespace: NetworkNamespace, passive: Bool = false, run: Run? = nil,
                     fetchesAPIAlone: Bool = false) {
        var seam = ProberSeam()
        seam.isPassive = passive
        seam.run = run
        // A prober holds only its engine's loop, which ends with the engine: the seam keeps the
        // engine as long as the prober, as a monitor would.
        let engine = try? EngineRegistry.engine(anyPolicyIn: namespace)
        seam.keepsAlive = engine
        self.init(configuration: ProberConfiguration(probe: probe, fetchesAPIAlone: fetchesAPIAlone), namespace: namespace,
                  loop: engine?.loop, resolver: engine?.resolverPool, seam: seam)
    }
}
