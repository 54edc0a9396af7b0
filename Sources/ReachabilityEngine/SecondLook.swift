import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
/// What the engine looks at again shortly after a deletion (`NetlinkEngine.scheduleSecondLook`):
/// the reach of the deleting changes, and monitors named one by one.
struct SecondLook {
    /// Route events whose destinations are looked at again.
    var routes = RouteChanges()
    /// Link changes whose monitors are looked at again.
    var links = LinkChanges()
    /// Monitors looked at again by name: after a lone route deletion, those the first look left unchanged.
    var cores: [ObjectIdentifier: any PathSubscriber] = [:]
    /// The deletion may have moved a default route: the `availableInterfaces` order is asked again.
    var movesDefaultRoutes = false

    /// Nothing to look at again.
    var isEmpty: Bool { routes.isEmpty && links.isEmpty && cores.isEmpty }

    mutating func formUnion(_ other: SecondLook) {
        routes.formUnion(other.routes)
        links.formUnion(other.links)
        cores.merge(other.cores) { current, _ in current }
        movesDefaultRoutes = movesDefaultRoutes || other.movesDefaultRoutes
    }
}
