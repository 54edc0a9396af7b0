import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
/// What the engine has done, for tests, logs and benchmarks.
package struct EngineCounters: Sendable, Equatable {
    package var kernelEvents = 0
    package var lookups = 0
    package var reevaluations = 0
    package var overruns = 0
    package var resyncs = 0
    package var forgedMessagesDropped = 0
    /// Captive-portal announcements (RA option 37) refused: malformed, unsafe or not `https://`.
    package var refusedAnnouncements = 0
    package var resolutions = 0
    /// Passes that asked again only for the targets inside the prefixes of route events.
    package var scopedReevaluations = 0
    /// Passes made shortly after a deletion, which the kernel announces before finishing it, when
    /// the engine could not wait for the kernel to finish it.
    package var secondLooks = 0
    /// Waits for the kernel to finish an operation it announced (`NetlinkEngine.settle`).
    package var settles = 0
    /// Passes made where the kernel sent no message: a route's expiry, a refresh watch, a router's neighbour state.
    package var silentStateLooks = 0
    /// Monitors a pass evaluated again whose verdict had not moved: no path was built for them.
    package var unmovedVerdicts = 0
}
