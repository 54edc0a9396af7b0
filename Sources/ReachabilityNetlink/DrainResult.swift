import ReachabilityModel

/// What one drain of the event socket found.
package struct DrainResult: Sendable, Equatable {
    /// A link or address object was added, changed or removed in the caches.
    package var linksOrAddressesChanged = false
    /// What of it moved, as the caches' change callbacks saw it: a link's state (`linksMoved`),
    /// or addresses of either family. All false with `linksOrAddressesChanged` when only values
    /// no path reads changed (statistics, lifetimes).
    package var linksMoved = false
    package var ipv4AddressesMoved = false
    package var ipv6AddressesMoved = false
    /// A captive-portal announcement was shown, replaced or dropped (an RA's, networkd's, or one
    /// the pacing held back): links change without a message of theirs, so the engine makes its
    /// snapshot afresh rather than from the links the caches touched.
    package var announcementsMoved = false
    /// A route, policy-rule or nexthop message arrived (routes are not cached: this is only a wake-up).
    package var routesChanged = false
    /// Which route questions those messages can affect.
    package var routeChanges = RouteChanges()
    /// A route, address, link, rule or nexthop was deleted. The kernel announces some deletions
    /// before it has finished them (fib_table_delete sends RTM_DELROUTE before removing the
    /// alias), so a lookup made at once can still meet the old route: the engine looks again.
    package var hadDeletions: Bool { deletions > 0 }
    /// How many deletions and route messages (routes, rules, nexthops) the drain held: a drain
    /// that is one route deletion alone lets the engine look again only where it saw no change.
    package var deletions = 0
    package var routeMessages = 0

    /// The drain held a single route deletion and nothing else that moves routes.
    package var isSingleRouteDeletion: Bool { deletions == 1 && routeMessages == 1 && !linksOrAddressesChanged }
    /// The route deletion of a drain that may be `isSingleRouteDeletion` (read only when it is
    /// the drain's first route message, with no link or address moved before it); nil otherwise,
    /// or when it could not be read.
    package var deletedRoute: DeletedRoute?
    /// The request of the first message a process caused (`NetlinkRequest`), and whether a
    /// message of another request came too.
    package var firstRequest: NetlinkRequest?
    package var severalRequests = false

    /// Whether the drain holds a message of a request other than `request`: that one is over.
    package func holdsRequest(laterThan request: NetlinkRequest) -> Bool {
        severalRequests || (firstRequest.map { $0 != request } ?? false)
    }

    /// Notes the request a message names (`nlmsg_pid`, 0 for the kernel's own).
    package mutating func noteRequest(port: UInt32, sequence: UInt32) {
        guard port != 0 else { return }
        let request = NetlinkRequest(port: port, sequence: sequence)
        if let firstRequest { if request != firstRequest { severalRequests = true } } else { firstRequest = request }
    }
    /// The kernel dropped events because the receive buffer was full (ENOBUFS).
    package var overrun = false
    /// Messages not sent by the kernel (sender port not 0), dropped unread.
    package var forgedDropped = 0
    /// Messages from the kernel, read.
    package var messages = 0

    /// Watched routers whose neighbour state moved (`NeighbourFilter`), and whether an RA's user
    /// options arrived: hints that an answer moved without a route message.
    package var movedRouters: Set<RouterNeighbour> = []
    package var userOptions = false

    /// Captive-portal announcements refused (`CaptivePortalRefusal`), and the first
    /// `refusalDetailLimit` of them with their reasons, for the log: a storm of hostile RAs
    /// costs a count, not a string each.
    package var refusedAnnouncements = 0
    package var refusals: [CaptivePortalRefusal] = []
    package static let refusalDetailLimit = 32

    package var anythingChanged: Bool { linksOrAddressesChanged || routesChanged || overrun || !movedRouters.isEmpty || userOptions }

    package init() {}

    /// Adds a later drain, as if both had been one: what either changed, and both counts.
    package mutating func formUnion(_ later: DrainResult) {
        linksOrAddressesChanged = linksOrAddressesChanged || later.linksOrAddressesChanged
        announcementsMoved = announcementsMoved || later.announcementsMoved
        linksMoved = linksMoved || later.linksMoved
        ipv4AddressesMoved = ipv4AddressesMoved || later.ipv4AddressesMoved
        ipv6AddressesMoved = ipv6AddressesMoved || later.ipv6AddressesMoved
        routesChanged = routesChanged || later.routesChanged
        routeChanges.formUnion(later.routeChanges)
        deletions += later.deletions
        if later.deletedRoute != nil { deletedRoute = later.deletedRoute }
        if let request = later.firstRequest { noteRequest(port: request.port, sequence: request.sequence) }
        severalRequests = severalRequests || later.severalRequests
        routeMessages += later.routeMessages
        overrun = overrun || later.overrun
        forgedDropped += later.forgedDropped
        messages += later.messages
        movedRouters.formUnion(later.movedRouters)
        userOptions = userOptions || later.userOptions
        refusedAnnouncements += later.refusedAnnouncements
        refusals += later.refusals.prefix(Self.refusalDetailLimit - min(refusals.count, Self.refusalDetailLimit))
    }

    /// Counts a refused announcement, keeping its detail while under the limit.
    package mutating func noteRefusal(_ refusal: CaptivePortalRefusal) {
        refusedAnnouncements += 1
        if refusals.count < Self.refusalDetailLimit { refusals.append(refusal) }
    }
}
