import ReachabilityLoop
import ReachabilityModel
import ReachabilityNetlink

/// What the engine absorbed from its socket and has not yet propagated to the monitors: the
/// snapshot before the first of those drains (what link changes are measured from) and the drains
/// themselves, merged (`NetlinkEngine.absorb`, `propagate`).
struct PendingChange {
    var base: KernelSnapshot
    var drained = DrainResult()
    /// A deletion among the drains may not be over in the kernel (`NetlinkEngine.settle` could not
    /// wait for it): the engine looks again shortly after propagating.
    var mayBeUnfinished = false
}
