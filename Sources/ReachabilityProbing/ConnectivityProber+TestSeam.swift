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
    package typealias Run = @Sendable (ProbeSignal) -> ConnectivityAnswer?

    /// `isPassive` sends nothing (answers come by hand, `ConnectivitySubscriber.applyConnectivity`); `run`
    /// answers in place of `ProbeRunner`, so the schedule can be tested without a network.
    package struct TestSeam: Sendable {
        package var isPassive: Bool
        package var run: Run?
    }

    package var isPassive: Bool { testSeam?.isPassive ?? false }

    /// The delay after the last `limited` or `portal` answer (`State.backoff`).
    package var backoff: Duration? { state.withLock { $0.backoff } }

    /// Returns once the passes asked for so far ran (they run on the engine's loop, paced).
    package func settle() {
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
    package var isPassive: Bool { false }
}
#endif
