import Dispatch
import Logging

/// The event side: drains, what a change can have moved, the second look after a deletion, resyncs.
extension NetlinkEngine {
    // MARK: - Events

    func handleReadable() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let sockets else { return }
        apply(sockets.events.drain(), from: sockets)
    }

    /// Brings the snapshot up to date with a drain and re-evaluates what it can have moved.
    ///
    /// A change of an available link (or of its addresses), a rule, a nexthop or an overrun can
    /// move any target: all are evaluated again. A route event moves only the destinations inside
    /// its prefix (all of them when the prefix covers a default-route probe), and a change of links
    /// that are available neither before nor after it (a container's veth) only the targets that
    /// leave by them or had no route (`LinkChanges`); with only those, just the subscribers they
    /// can move are asked about again.
    func apply(_ result: DrainResult, from sockets: EngineSockets) {
        count(result)
        if result.overrun { scheduleResync() }
        if !result.movedRouters.isEmpty || result.userOptions { silentStateHinted(routers: result.movedRouters) }
        guard result.linksOrAddressesChanged || result.routesChanged else { return }
        let previous = snapshot
        if result.linksOrAddressesChanged { snapshot = sockets.freshSnapshot() }
        let links = LinkChanges(from: previous, to: snapshot)
        var changes = result.routeChanges
        guard !links.isEmpty || !changes.isEmpty else { return }
        if result.hadDeletions && links.touchesAvailableLinks {
            // Deleting an available link or one of its addresses moves the routes of its own prefixes: look again at everything.
            changes.isBroad = true
        }
        let unchanged = reevaluate(after: changes, links: links)
        if result.isSingleRouteDeletion {
            // One route deleted, nothing else: a monitor whose path the first look changed saw
            // the route gone; only those it left as they were may have met it still there.
            var look = SecondLook(movesDefaultRoutes: changes.isBroad || changes.affectsDefaultRoutes)
            for core in unchanged { look.cores[ObjectIdentifier(core)] = core }
            scheduleSecondLook(look)
        } else if result.hadDeletions {
            scheduleSecondLook(SecondLook(routes: changes, links: links))
        }
    }

    /// Re-evaluates what `changes` and `links` can have moved, and `named` monitors besides.
    ///
    /// - Returns: the monitors evaluated again whose path did not change.
    @discardableResult
    func reevaluate(after changes: RouteChanges, links: LinkChanges, alsoLookingAt named: [MonitorCore] = []) -> [MonitorCore] {
        let isBroad = links.touchesAvailableLinks || changes.isBroad || changes.affectsDefaultRoutes
        var cores: [MonitorCore]
        if isBroad {
            routingGeneration &+= 1
            cores = Array(subscribers.values)
        } else {
            counters.scopedReevaluations += 1
            cores = subscribers.values.filter { core in
                if links.mayMove(core.target, lastInterface: core.currentInterfaceIndex) { return true }
                guard !changes.isEmpty else { return false }
                let questions = Evaluator.questions(for: core.target, in: snapshot, resolution: resolution(for: core.target))
                return questions?.contains(where: changes.affects) ?? false
            }
            let covered = Set(cores.map(ObjectIdentifier.init))
            cores += named.filter { !covered.contains(ObjectIdentifier($0)) }
        }
        let unchanged = deliver(to: cores)
        if isBroad { resolveHostsIfNetworkMoved(linksOrAddressesMoved: links.touchesAvailableLinks) }
        return unchanged
    }

    /// Names resolve again when links or addresses changed, or a default route's verdict did:
    /// the answer of a split-horizon or link-local name server may depend on them.
    func resolveHostsIfNetworkMoved(linksOrAddressesMoved: Bool) {
        guard !hosts.isEmpty, let sockets else { return }
        let oracle = RouteOracle(socket: sockets.lookup)
        let verdicts = [RouteQuestion.defaultRoute(.ipv4), RouteQuestion.defaultRoute(.ipv6)].map {
            Evaluator.verdict(for: oracle.answer($0), in: snapshot)
        }
        if linksOrAddressesMoved || verdicts != defaultRouteVerdicts {
            defaultRouteVerdicts = verdicts
            resolveAllHosts()
        }
    }

    /// Looks again, shortly, at what a deletion may have moved: the kernel announces a deleted
    /// route before it removes it, and no later message tells when it is gone. Deletions within the
    /// delay share one second look; dedupe keeps it silent when nothing moved.
    func scheduleSecondLook(_ look: SecondLook) {
        guard !look.isEmpty else { return }
        if var pending = secondLook {
            pending.formUnion(look)
            secondLook = pending
            return
        }
        secondLook = look
        // The waiter's thread runs it: one wake-up, where `asyncAfter` costs dispatch two.
        waiter?.wake(at: .now() + Self.secondLookDelay)
    }

    /// The second look's time has come (on the queue, from the waiter).
    func secondLookDue() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let pending = secondLook else { return }
        secondLook = nil
        guard sockets != nil else { return }
        counters.secondLooks += 1
        if pending.movesDefaultRoutes { routingGeneration &+= 1 }
        let named = pending.cores.values.filter { subscribers[ObjectIdentifier($0)] != nil }
        reevaluate(after: pending.routes, links: pending.links, alsoLookingAt: named)
    }

    /// Reads what is queued without waiting for the event thread, so a synchronous evaluation sees
    /// every event the kernel sent before it.
    func drainAndRefresh() {
        guard let sockets else { return }
        apply(sockets.events.drain(), from: sockets)
    }

    func count(_ result: DrainResult) {
        counters.kernelEvents += result.messages
        if result.forgedDropped > 0 {
            counters.forgedMessagesDropped += result.forgedDropped
            logger.debug("dropped netlink messages not sent by the kernel", metadata: ["count": "\(result.forgedDropped)"])
        }
        if result.overrun {
            counters.overruns += 1
            logger.notice("netlink receive buffer overran; resyncing from fresh dumps", metadata: ["namespace": "\(namespace)"])
        }
    }

    func scheduleResync() {
        guard !resyncScheduled else { return }
        let earliest = lastResync + Self.minimumResyncInterval
        if DispatchTime.now() >= earliest {
            resync()
        } else {
            resyncScheduled = true
            // The wait loop's clock: dispatch's timers need its epoll descriptor (EventWaiter).
            _ = waiter?.schedule(at: earliest) { [weak self] in
                guard let self else { return }
                self.resyncScheduled = false
                self.resync()
            }
        }
    }

    /// Refills the caches from fresh dumps, then re-evaluates everything: the difference reaches
    /// the monitors through the normal callbacks.
    func resync() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let sockets else { return }
        lastResync = .now()
        counters.resyncs += 1
        routingGeneration &+= 1
        _ = sockets.events.drain()
        do {
            try sockets.refill()
        } catch {
            logger.notice("resync failed; keeping the last state", metadata: ["error": "\(error)"])
        }
        snapshot = sockets.freshSnapshot()
        reevaluateSubscribers()
    }
}
