import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
/// What the engine has done, for tests, logs and benchmarks.
struct EngineCounters: Sendable, Equatable {
    var kernelEvents = 0
    var lookups = 0
    var reevaluations = 0
    var overruns = 0
    var resyncs = 0
    var forgedMessagesDropped = 0
    /// Captive-portal announcements (RA option 37) refused: malformed, unsafe or not `https://`.
    var refusedAnnouncements = 0
    var resolutions = 0
    /// Passes that asked again only for the targets inside the prefixes of route events.
    var scopedReevaluations = 0
    /// Passes made shortly after a deletion, which the kernel announces before finishing it, when
    /// the engine could not wait for the kernel to finish it.
    var secondLooks = 0
    /// Waits for the kernel to finish an operation it announced (`NetlinkEngine.settle`).
    var settles = 0
    /// Passes made where the kernel sent no message: a route's expiry, a refresh watch, a router's neighbour state.
    var silentStateLooks = 0
}
