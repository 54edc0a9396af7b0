import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityResolution
import ReachabilitySystem

/// What the engine's timers and the engine's watchers and resolver threads ask of it: typed
/// values, so a timer or a post allocates no closure and no `Sendable` closure ever holds the
/// engine (the loop hands each to `receive`, on its thread).
package enum EngineMessage: Sendable {
    /// One of the engine's timers fired.
    case timer(EngineTimer)
    /// A resolver thread finished resolving a name.
    case resolutionFinished(String, ResolutionOutcome)
    /// Files the engine reads changed (its one watcher): the resolver's configuration, resolved's
    /// servers, networkd's link records.
    case configurationChanged(ConfigurationWatcher.Changes)
    /// The namespace's name went away (its watcher).
    case namespaceVanished
    /// Another thread reads `target`'s path now and waits for it in `reply`.
    case read(MonitorTarget, reply: ReadReply)
    /// Another thread reads `target`'s path now, unless it is a name whose first resolution has
    /// not finished (then `reply` says not resolved), and waits for it in `reply`.
    case readIfKnown(MonitorTarget, reply: ReadReply)
}

extension NetlinkEngine: EventLoopOwner {
    package func eventSocketReadable() {
        handleReadable()
    }

    package func receive(_ message: EngineMessage) {
        switch message {
        case .timer(let timer):
            effects.fired(timer)
            timerFired(timer)
        case .resolutionFinished(let name, let outcome): resolutionFinished(name, outcome)
        case .configurationChanged(let changes): configurationChanged(changes)
        case .namespaceVanished: namespaceVanished()
        case .read(let target, let reply):
            let (path, isResolved) = read(target)
            reply.give(path, isResolved: isResolved)
        case .readIfKnown(let target, let reply):
            let path = readIfKnown(target)
            reply.give(path ?? .unsatisfied(.namespaceUnavailable), isResolved: path != nil)
        }
    }

    private func timerFired(_ timer: EngineTimer) {
        switch timer {
        case .secondLook: secondLookDue()
        case .resync: resync()
        case .expiry: expiryDue()
        case .announcementRelease: releaseHeldAnnouncements()
        case .firstResolutionTimeout(let name): firstResolutionTimedOut(name)
        case .reresolve(let name): reresolutionDue(name)
        }
    }

    /// Applies what the turn asked of the loop and the sockets, then reports the turn's counters.
    package func endTurn() {
        effects.apply(on: loop, events: sockets?.events)
        report.endTurn()
    }
}
