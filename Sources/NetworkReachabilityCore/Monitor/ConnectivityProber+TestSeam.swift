import ReachabilityEngine
import ReachabilityLoop
import Dispatch
import ReachabilityConnectivity
#if canImport(Glibc)
import Glibc
#endif
import ReachabilityModel

#if DEBUG
/// What the unit tests of the schedule use, compiled into debug builds only (a release build of
/// the library or the command carries none of it).
extension ConnectivityProber {
    /// Runs one probe on the probe's thread (nil: cancelled), in place of `ProbeRunner`.
    typealias Run = @Sendable (ProbeSignal) -> ConnectivityAnswer?

    /// `isPassive` sends nothing (answers come by hand, `MonitorCore.applyConnectivity`); `run`
    /// answers in place of `ProbeRunner`, so the schedule can be tested without a network.
    struct TestSeam: Sendable {
        var isPassive: Bool
        var run: Run?
    }

    var isPassive: Bool { testSeam?.isPassive ?? false }

    /// The delay after the last `limited` or `portal` answer (`State.backoff`).
    var backoff: Duration? { state.withLock { $0.backoff } }

    /// Returns once the passes asked for so far ran (they run on the engine's loop, paced).
    func settle() {
        let deadline = DispatchTime.now() + .seconds(10)
        while state.withLock({ $0.kickScheduled }), DispatchTime.now() < deadline {
            _ = engine?.loop.submitAndWait {}
            usleep(200)
        }
        _ = engine?.loop.submitAndWait {}
    }
}
#else
extension ConnectivityProber {
    /// Release builds always send their probes.
    var isPassive: Bool { false }
}
#endif
