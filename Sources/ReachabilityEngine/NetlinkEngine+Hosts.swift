import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch
import Logging

/// Host-name targets: resolution on the resolver threads, re-resolution on change, first-resolution waits.
extension NetlinkEngine {
    /// Adds a monitor of `name`: resolves it now if it is new; sets the periodic re-resolution.
    func registerHost(_ name: String, options: HostResolutionOptions) {
        let interval = max(options.reresolveInterval.nanosecondsClamped, 100_000_000)
        let timeout = options.firstResolutionTimeout.nanosecondsClamped
        let isNew = names.entries[name] == nil
        names.entries[name, default: HostEntry()].intervals.append(interval)
        armTimer(for: name)
        if isNew {
            resolve(name)
        }
        if names.entries[name]?.resolution.state == .pending {
            effects.arm(.firstResolutionTimeout(name), at: .now() + .nanoseconds(timeout))
        }
    }

    /// Removes a monitor of `name`; the name is forgotten with its last monitor.
    func unregisterHost(_ name: String, options: HostResolutionOptions) {
        let interval = max(options.reresolveInterval.nanosecondsClamped, 100_000_000)
        guard var entry = names.entries[name] else { return }
        if let index = entry.intervals.firstIndex(of: interval) { entry.intervals.remove(at: index) }
        if entry.intervals.isEmpty {
            effects.add(.disarm(.reresolve(name)))
            effects.add(.disarm(.firstResolutionTimeout(name)))
            entry.releaseWaiters()
            names.entries[name] = nil
        } else {
            names.entries[name] = entry
            armTimer(for: name)
        }
    }

    /// Runs `then` once the first resolution of `name` finished (or timed out, or the namespace
    /// vanished). - Returns: false, running nothing, when it is not pending.
    func awaitFirstResolution(of name: String, then: @escaping @Sendable () -> Void) -> Bool {
        guard names.entries[name]?.resolution.state == .pending else { return false }
        names.entries[name]?.waiters.append(then)
        return true
    }

    // MARK: - Resolution

    /// Resolves one name on the pool; a request while one is in flight runs once more after it.
    func resolve(_ name: String) {
        guard names.entries[name] != nil else { return }
        if names.entries[name]!.inFlight {
            names.entries[name]!.resolveAgain = true
            return
        }
        names.entries[name]!.inFlight = true
        report.counters.resolutions += 1
        // The answer comes back as a message from the resolver's thread.
        resolverPool.submit(ResolverPool.Job(name: name) { [loop] outcome in
            loop.send(.resolutionFinished(name, outcome))
        })
    }

    /// Resolves every name again: the network or the resolver's configuration changed.
    func resolveAllHosts() {
        for name in names.entries.keys { resolve(name) }
    }

    func resolutionFinished(_ name: String, _ outcome: ResolutionOutcome) {
        guard var entry = names.entries[name] else { return }
        let before = entry.resolution
        entry.inFlight = false
        entry.apply(outcome)
        entry.releaseWaiters()
        let again = entry.resolveAgain
        entry.resolveAgain = false
        names.entries[name] = entry
        if case .temporaryFailure(let text) = outcome {
            identity.logger.debug("name resolution failed for now", metadata: ["name": "\(name)", "error": "\(text)"])
        }
        // The first resolution's timeout has nothing left to time.
        if before.state == .pending, entry.resolution.state != .pending { effects.add(.disarm(.firstResolutionTimeout(name))) }
        if entry.resolution != before || before.state == .pending {
            publishEvaluations(ofHost: name)
        }
        if again { resolve(name) }
    }

    func firstResolutionTimedOut(_ name: String) {
        guard names.entries[name]?.resolution.state == .pending else { return }
        names.entries[name]!.resolution.state = .failed
        names.entries[name]!.releaseWaiters()
        publishEvaluations(ofHost: name)
    }

    /// Re-resolves `name` every shortest interval of its monitors, on the loop's clock.
    private func armTimer(for name: String) {
        guard let interval = names.entries[name]?.shortestInterval, names.entries[name]?.timerInterval != interval else { return }
        names.entries[name]?.timerInterval = interval
        scheduleReresolution(of: name, after: interval)
    }

    private func scheduleReresolution(of name: String, after interval: Int) {
        effects.arm(.reresolve(name), at: .now() + .nanoseconds(interval))
    }

    /// A name's re-resolution is due: it resolves, and the next one is set.
    func reresolutionDue(_ name: String) {
        guard let interval = names.entries[name]?.timerInterval else { return }
        resolve(name)
        scheduleReresolution(of: name, after: interval)
    }

    /// Follows the files the engine reads, in its one inotify instance: resolv.conf and hosts (and
    /// their `/etc/netns/NAME` copies), resolved's upstream servers and networkd's link state files.
    func startWatchingConfiguration() {
        guard resolverConfiguration.watcher == nil else { return }
        resolverConfiguration.watcher = ConfigurationWatcher(namespace: identity.namespace,
                                                             sources: resolverConfiguration.nameServers.sources,
                                                             loop: loop) { [loop] changes in
            loop.send(.configurationChanged(changes))
        }
    }

    /// Names resolve again when the resolver's files or its servers changed, and every path is
    /// evaluated again since `supportsDNS` may have changed.
    func configurationChanged(_ changes: ConfigurationWatcher.Changes) {
        var serversMoved = !changes.isDisjoint(with: [.resolver, .resolvedServers])
        if changes.contains(.networkdLinks) { serversMoved = networkdLinksChanged() || serversMoved }
        guard serversMoved else { return }
        identity.logger.debug("resolver configuration changed", metadata: ["namespace": "\(identity.namespace)"])
        resolverConfiguration.changed()
        if !names.isEmpty {
            if changes.contains(.resolver) { resolverPool.configurationChanged() }
            resolveAllHosts()
        }
        publishEvaluationsOfAll()
    }
}
