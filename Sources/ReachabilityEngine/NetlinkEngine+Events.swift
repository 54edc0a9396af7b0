import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch
import Logging

/// The event side: drains, what a change can have moved, the second look after a deletion, resyncs.
extension NetlinkEngine {
    // MARK: - Events

    /// The event socket is readable, or a read needs what it holds: absorb it and propagate it to
    /// the monitors, so no answer predates an event the kernel already sent.
    ///
    /// - Parameter forRead: a read follows, of a target that may be no subscriber's: every
    ///   deletion is waited for (`settle`), not only those of routes a subscriber asks about.
    func handleReadable(forRead: Bool = false) {
        guard let sockets else { return }
        absorb(sockets.events.drain(), from: sockets, forRead: forRead)
        propagate()
    }

    /// Brings the snapshot up to date with a drain, in place; what it can have moved waits in
    /// `pending` for `propagate`.
    func absorb(_ drained: DrainResult, from sockets: EngineSockets, forRead: Bool = false) {
        let (result, finished) = settle(drained, from: sockets, forRead: forRead)
        count(result)
        askForAnnouncementRelease()
        guard result.anythingChanged else { return }
        forgetAnswers(movedBy: result)
        // Changed in place: a copy taken out and put back would copy the drain's storage.
        if questions.pending == nil {
            questions.pending = PendingChange(drained: result)
        } else {
            questions.pending!.drained.formUnion(result)
        }
        if result.hadDeletions && !finished { questions.pending!.mayBeUnfinished = true }
        if result.linksOrAddressesChanged {
            let links = model.apply(from: sockets, afresh: result.announcementsMoved)
            questions.pending!.links.formUnion(links)
        }
    }

    /// How many times `settle` waits for the kernel's operations before it leaves the rest to a
    /// second look: each wait ends one operation, and a later drain shows whether another began
    /// (a downed link: its IPv6 addresses' and routes' messages come in the drain after the wait).
    static let settleRounds = 2

    /// A drain of more messages than this is a storm of changes (a routing daemon's, a host
    /// starting containers), which holds the kernel's lock most of the time: waiting for it there
    /// would cost more than it saves, as a waiter spins on the lock. The second look stays.
    static let settleMessageLimit = 64

    /// Waits, after a drain that announced a deletion or a change of links or addresses, until the
    /// kernel has finished the operation that sent it (`RouteLookupSocket.awaitRoutingLock`), and
    /// adds what the operation sent meanwhile: the lookups then meet the routes as they are after
    /// it (a downed link's IPv4 routes flushed, a deleted route gone, an added address's prefix
    /// route in place), so one pass tells the whole change, with no timer and no second pass. A
    /// route added alone needs no wait: the kernel announces it once it is in place. An overrun
    /// needs none either: the resync rereads all. (Waiting only after deletions and lost links, as
    /// the truthful floor does, measured no better in the harness's link flaps and churn, within
    /// their run-to-run spread: BENCHMARKS.md, "The engine's turn".)
    ///
    /// Route deletions that no subscriber's question meets are not waited for, nor looked at
    /// again: their turn moves no answer, and costs the drain alone (unless a read follows,
    /// `forRead`, whose target may be no subscriber's). A route deleted alone is not waited for
    /// either: the lookup socket keeps it (`RouteLookupSocket.unconfirmedDeletion`) and waits
    /// only for an answer that may still be that route, which the kernel has nearly always
    /// removed by the time it is asked.
    ///
    /// - Returns: the drains merged, and whether every such operation is known to be over.
    func settle(_ drained: DrainResult, from sockets: EngineSockets, forRead: Bool = false) -> (DrainResult, finished: Bool) {
        // A message of a later request: the deletion not waited for is over.
        if let request = sockets.lookup.unconfirmedDeletion?.request, drained.holdsRequest(laterThan: request) {
            sockets.lookup.unconfirmedDeletion = nil
        }
        var result = drained
        var latest = drained
        for _ in 0..<Self.settleRounds {
            guard latest.hadDeletions || latest.linksOrAddressesChanged else { return (result, true) }
            guard forRead || !Self.movesOnlyRoutes(latest) || subscribersAsk(movedBy: latest.routeChanges) else {
                return (result, true)
            }
            // One route deleted, nothing else: not waited for. An answer that may be that route
            // is asked again after a wait (`RouteLookupSocket.unconfirmedDeletion`).
            if latest.isSingleRouteDeletion, Self.movesOnlyRoutes(latest), let deleted = latest.deletedRoute,
               sockets.lookup.unconfirmedDeletion == nil {
                sockets.lookup.unconfirmedDeletion = deleted
                return (result, true)
            }
            guard !latest.overrun, latest.messages <= Self.settleMessageLimit,
                  sockets.lookup.awaitRoutingLock() else { return (result, false) }
            report.counters.settles += 1
            latest = sockets.events.drain()
            result.formUnion(latest)
        }
        return (result, !(latest.hadDeletions || latest.linksOrAddressesChanged))
    }

    /// Re-evaluates what the absorbed drains can have moved and delivers it, once for all of them.
    ///
    /// A change of an available link (or of its addresses), a rule, a nexthop or an overrun can
    /// move any target: all are evaluated again. A route event moves only the destinations inside
    /// its prefix (all of them when the prefix covers a default-route probe), and a change of links
    /// that are available neither before nor after it (a container's veth) only the targets that
    /// leave by them or had no route (`LinkChanges`); with only those, just the subscribers they
    /// can move are asked about again.
    func propagate() {
        guard let change = questions.pending else { return }
        questions.pending = nil
        let result = change.drained
        if result.overrun, let moment = questions.resync.next() { effects.arm(.resync, at: moment) }
        if !result.movedRouters.isEmpty || result.userOptions { silentStateHinted(routers: result.movedRouters) }
        let links = change.links
        var changes = result.routeChanges
        guard !links.isEmpty || !changes.isEmpty else { return }
        if result.hadDeletions && links.touchesAvailableLinks {
            // Deleting an available link or one of its addresses moves the routes of its own prefixes: look again at everything.
            changes.isBroad = true
        }
        let unchanged = publishMoved(by: changes, links: links, reusingAnswers: Self.keepsAnswers(result))
        guard change.mayBeUnfinished else { return }
        // The kernel could not be waited for (`settle`): look again shortly, as it may still
        // have been removing what it announced.
        if result.isSingleRouteDeletion {
            // One route deleted, nothing else: a monitor whose path the first look changed saw
            // the route gone; only those it left as they were may have met it still there.
            var look = SecondLook(movesDefaultRoutes: changes.isBroad || changes.affectsDefaultRoutes)
            for core in unchanged { look.cores[ObjectIdentifier(core)] = core }
            scheduleSecondLook(look)
        } else {
            scheduleSecondLook(SecondLook(routes: changes, links: links))
        }
    }

    /// Re-evaluates what `changes` and `links` can have moved, and `named` monitors besides.
    ///
    /// - Returns: the monitors evaluated again whose path did not change.
    ///
    /// - Parameter reusingAnswers: the book's answers stand where the changes do not reach
    ///   (a turn of route messages, or of one family's addresses; see `forgetAnswers`).
    @discardableResult
    func publishMoved(by changes: RouteChanges, links: LinkChanges, alsoLookingAt named: [any PathSubscriber] = [],
                      reusingAnswers: Bool = false) -> [any PathSubscriber] {
        let isBroad = links.touchesAvailableLinks || changes.isBroad || changes.affectsDefaultRoutes
        var cores: [any PathSubscriber]
        if isBroad {
            model.routingMoved()
            cores = questions.subscriptions.all
        } else {
            report.counters.scopedReevaluations += 1
            let all = questions.subscriptions.all
            // One subscriber (the common case) is kept or not: no filtered copy made of the list.
            if all.count == 1 {
                cores = mayBeMoved(all[0], by: changes, links: links) ? all : []
            } else {
                cores = all.filter { mayBeMoved($0, by: changes, links: links) }
            }
            // A change that reaches nobody (a route no monitor asks about) allocates nothing here.
            if !named.isEmpty {
                let covered = Set(cores.map(ObjectIdentifier.init))
                cores += named.filter { !covered.contains(ObjectIdentifier($0)) }
            }
        }
        let unchanged = publishEvaluations(of: cores, reusingAnswers: reusingAnswers)
        if isBroad { resolveHostsIfNetworkMoved(linksOrAddressesMoved: links.touchesAvailableLinks) }
        return unchanged
    }

    /// Whether `links` or `changes` may move `core`'s path.
    private func mayBeMoved(_ core: any PathSubscriber, by changes: RouteChanges, links: LinkChanges) -> Bool {
        if links.mayMove(core.target, lastInterface: questions.subscriptions.lastInterface(of: core)) { return true }
        return !changes.isEmpty && asks(core, movedBy: changes)
    }

    /// Whether `core`'s questions meet a prefix of `changes`.
    private func asks(_ core: any PathSubscriber, movedBy changes: RouteChanges) -> Bool {
        Evaluator.asksAny(for: core.target, in: model.snapshot, resolution: names.resolution(for: core.target),
                          where: { changes.affects($0) })  // a literal: `changes.affects` would box `changes`
    }

    /// Whether route messages of `changes` can move an answer a subscriber holds: one reaching
    /// the default routes (the general path, the interfaces' order, the names' verdicts) or
    /// every destination, or a prefix a subscriber's question falls in.
    func subscribersAsk(movedBy changes: RouteChanges) -> Bool {
        if changes.isBroad || changes.affectsDefaultRoutes { return true }
        return questions.subscriptions.all.contains { asks($0, movedBy: changes) }
    }

    /// Names resolve again when links or addresses changed, or a default route's verdict did:
    /// the answer of a split-horizon or link-local name server may depend on them.
    func resolveHostsIfNetworkMoved(linksOrAddressesMoved: Bool) {
        guard !names.isEmpty, let sockets else { return }
        let oracle = RouteOracle(socket: sockets.lookup)
        let verdicts = [RouteQuestion.defaultRoute(.ipv4), RouteQuestion.defaultRoute(.ipv6)].map {
            Evaluator.verdict(for: oracle.answer($0), in: model.snapshot)
        }
        if linksOrAddressesMoved || verdicts != names.defaultRouteVerdicts {
            names.defaultRouteVerdicts = verdicts
            resolveAllHosts()
        }
    }

    /// Looks again, shortly, at what a deletion may have moved, when `settle` could not wait for
    /// the kernel to finish it: the kernel announces a deleted route before it removes it, and no
    /// later message tells when it is gone. Deletions within the delay share one second look;
    /// dedupe keeps it silent when nothing moved.
    func scheduleSecondLook(_ look: SecondLook) {
        guard !look.isEmpty, questions.addSecondLook(look) else { return }
        effects.arm(.secondLook, at: .now() + Self.secondLookDelay)
    }

    /// The second look's time has come.
    func secondLookDue() {
        guard let look = questions.secondLook else { return }
        questions.secondLook = nil
        guard sockets != nil else { return }
        report.counters.secondLooks += 1
        if look.movesDefaultRoutes { model.routingMoved() }
        let named = look.cores.values.filter { questions.subscriptions.contains(ObjectIdentifier($0)) }
        publishMoved(by: look.routes, links: look.links, alsoLookingAt: named)
    }

    /// For a read: what the socket holds is absorbed and propagated first, as the loop would
    /// have done on its next turn, so the answer never predates an event the kernel already sent.
    func absorbForRead() {
        handleReadable(forRead: true)
    }

    /// Keeps the answer book true the moment a drain is absorbed, before any pass can read it:
    /// route messages take out the answers they cover, addresses of one family every answer of
    /// that family (an IPv4 address moves no IPv6 route); anything else that can move answers
    /// (links, rules, nexthops, an overrun, a router's neighbour state) empties it.
    func forgetAnswers(movedBy result: DrainResult) {
        if Self.movesOnlyRoutes(result) {
            questions.answers.forget(movedBy: result.routeChanges)
        } else if let family = Self.addressFamilyAloneMoved(result) {
            questions.answers.forget(movedBy: result.routeChanges)
            questions.answers.forget(family: family)
        } else {
            questions.answers.forgetAll()
        }
    }

    /// Whether the answers the book keeps after `forgetAnswers` are the kernel's: a drain of
    /// route messages, or of one family's addresses beside them.
    static func keepsAnswers(_ result: DrainResult) -> Bool {
        movesOnlyRoutes(result) || addressFamilyAloneMoved(result) != nil
    }

    /// The family whose addresses moved, when nothing else did but route messages of known
    /// prefixes: no link, no announcement, no rule, no overrun, no router.
    static func addressFamilyAloneMoved(_ result: DrainResult) -> IPAddress.Family? {
        guard result.linksOrAddressesChanged, !result.linksMoved, !result.announcementsMoved, !result.overrun,
              !result.routeChanges.isBroad, result.movedRouters.isEmpty, !result.userOptions,
              result.ipv4AddressesMoved != result.ipv6AddressesMoved else { return nil }
        return result.ipv4AddressesMoved ? .ipv4 : .ipv6
    }

    /// Whether a drain holds nothing that moves answers but route messages of known prefixes.
    static func movesOnlyRoutes(_ result: DrainResult) -> Bool {
        !result.linksOrAddressesChanged && !result.overrun && !result.routeChanges.isBroad
            && result.movedRouters.isEmpty && !result.userOptions
    }

    func count(_ result: DrainResult) {
        report.counters.kernelEvents += result.messages
        if result.forgedDropped > 0 {
            report.counters.forgedMessagesDropped += result.forgedDropped
            identity.logger.debug("dropped netlink messages not sent by the kernel", metadata: ["count": "\(result.forgedDropped)"])
        }
        if result.refusedAnnouncements > 0 { countRefusals(in: result) }
        if result.overrun {
            report.counters.overruns += 1
            identity.logger.notice("netlink receive buffer overran; resyncing from fresh dumps", metadata: ["namespace": "\(identity.namespace)"])
        }
    }

    /// Refills the caches from fresh dumps, then re-evaluates everything: the difference reaches
    /// the monitors through the normal callbacks. Runs in a turn of its own, when the pacing
    /// allows (`ResyncPacing`).
    func resync() {
        guard let sockets else { return }
        questions.resync.started()
        report.counters.resyncs += 1
        model.routingMoved()
        _ = sockets.events.drain()
        questions.answers.forgetAll()
        do {
            try sockets.refill()
        } catch {
            identity.logger.notice("resync failed; keeping the last state", metadata: ["error": "\(error)"])
        }
        model.snapshot = sockets.freshSnapshot()
        publishEvaluationsOfAll()
    }
}
