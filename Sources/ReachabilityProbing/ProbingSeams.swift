import ReachabilityDelivery
import Dispatch
import ReachabilityConnectivity
import ReachabilityModel

/// The prober's seams for tests, the one file of this target that holds `#if DEBUG`.
///
/// What the unit tests of the schedule replace is given to a prober when it is made
/// (`ProberSeam`); a release build's seam is empty, and what it answers in the seam's place is
/// here too, so the prober's code has no `#if` and the release command carries none of the tests'
/// stand-ins.
package struct ProberSeam: Sendable {
    #if DEBUG
    /// Sends nothing: answers come by hand (`ConnectivitySubscriber.applyConnectivity`).
    package var isPassive = false
    /// Answers in place of `ProbeRunner`, so the schedule can be tested without a network.
    package var run: ConnectivityProber.Run?
    /// Kept alive as long as the prober: a unit test's engine, whose loop the prober runs on (a
    /// prober holds the loop, not the engine; a monitor holds the engine).
    package var keepsAlive: (any AnyObject & Sendable)?
    #endif

    package init() {}
}

extension ConnectivityProber {
    /// Whether the prober sends nothing (a test's seam); never in a release build.
    package var isPassive: Bool {
        #if DEBUG
        seam.isPassive
        #else
        false
        #endif
    }

    /// How a probe runs, on the probe's thread: the job's own run, or a test's stand-in.
    var probeRun: @Sendable (ProbeJob, ProbeSignal) -> ProbeJob.Answers? {
        #if DEBUG
        if let run = seam.run { return { job, signal in job.everyone(run(signal)) } }
        #endif
        return { job, signal in job.run(signal: signal) }
    }
}

#if DEBUG
extension ConnectivityProber {
    /// Runs one probe on the probe's thread (nil: cancelled), in place of `ProbeRunner`.
    package typealias Run = @Sendable (ProbeSignal) -> ConnectivityAnswer?

    /// The delay after the last `limited` or `portal` answer (`State.backoff`).
    package var backoff: Duration? { state.withLock { $0.backoff } }

    /// Returns once the passes asked for so far ran (they run on the engine's loop, paced), and
    /// what they posted. A pass set for a moment runs before a timer of the same loop set for that
    /// moment afterwards (timers of one moment run in the order they were made); one posted at
    /// once runs before a later post. A pass that asks for another is waited for too.
    package func settle() {
        let deadline = DispatchTime.now() + .seconds(10)
        while let loop, let due = state.withLock({ $0.kickScheduled ? $0.lastPass &+ Self.passPace : nil }),
              DispatchTime.now() < deadline {
            let ran = DispatchSemaphore(value: 0)
            _ = loop.schedule(at: DispatchTime(uptimeNanoseconds: due)) { ran.signal() }
            _ = ran.wait(timeout: deadline)
            _ = loop.submitAndWait {}
        }
        _ = loop?.submitAndWait {}
    }
}

extension ProbeJob {
    /// `answer` for every path (the unit tests' stand-in for a run gives one answer to all).
    func everyone(_ answer: ConnectivityAnswer?) -> Answers? {
        answer.map { answer in Dictionary(uniqueKeysWithValues: apis.map { ($0, answer) }) }
    }
}
#endif
