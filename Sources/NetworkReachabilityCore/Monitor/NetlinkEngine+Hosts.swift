import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch
import Logging

/// Host-name targets: resolution off the queue, re-resolution on change, first-resolution waits.
extension NetlinkEngine {
    /// Adds a monitor of `name`: resolves it now if it is new; sets the periodic re-resolution.
    func registerHost(_ name: String, options: HostResolutionOptions) {
        let interval = max(options.reresolveInterval.nanosecondsClamped, 100_000_000)
        let timeout = options.firstResolutionTimeout.nanosecondsClamped
        queue.sync {
            let isNew = hosts[name] == nil
            hosts[name, default: HostEntry()].intervals.append(interval)
            armTimer(for: name)
            if isNew {
                resolve(name)
            }
            if hosts[name]?.resolution.state == .pending {
                _ = waiter?.schedule(at: .now() + .nanoseconds(timeout)) { [weak self] in
                    self?.firstResolutionTimedOut(name)
                }
            }
        }
    }

    /// Removes a monitor of `name`; the name is forgotten with its last monitor.
    func unregisterHost(_ name: String, options: HostResolutionOptions) {
        let interval = max(options.reresolveInterval.nanosecondsClamped, 100_000_000)
        deferOnQueue { [self] in
            guard var entry = hosts[name] else { return }
            if let index = entry.intervals.firstIndex(of: interval) { entry.intervals.remove(at: index) }
            if entry.intervals.isEmpty {
                entry.timer.map { waiter?.cancel($0) }
                entry.releaseWaiters()
                hosts[name] = nil
            } else {
                hosts[name] = entry
                armTimer(for: name)
            }
        }
    }

    /// Blocks the caller (never the queue) until the first resolution of `name` finished, or `timeout` passed.
    ///
    /// Not on a loop's thread (a callback scheduled on the engine's thread): the resolution's
    /// answer reaches the engine through that very thread, so waiting there would only time out.
    func waitForFirstResolution(of name: String, timeout: Duration) {
        guard EngineThreadOutbox.current == nil else { return }
        let resolved = WaitableState(false)
        let mustWait = queue.sync { () -> Bool in
            guard hosts[name]?.resolution.state == .pending else { return false }
            hosts[name]?.waiters.append {
                resolved.withLock { $0 = true }
                resolved.broadcast()
            }
            return true
        }
        if mustWait {
            resolved.wait(until: { $0 }, timeout: timeout) { _ in }
        }
    }

    /// Suspends (never blocks) until the first resolution of `name` finished, or `timeout` passed.
    func firstResolution(of name: String, timeout: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = ResumeOnce(continuation)
            deferOnQueue { [self] in
                guard hosts[name]?.resolution.state == .pending, let waiter else { return once.resume() }
                hosts[name]?.waiters.append { once.resume() }
                _ = waiter.schedule(at: .now() + .nanoseconds(timeout.nanosecondsClamped)) { once.resume() }
            }
        }
    }

    /// Evaluates `target` now, like `read`, suspending the caller instead of blocking it.
    func read(_ target: MonitorTarget) async -> NetworkPath {
        await withCheckedContinuation { continuation in
            deferOnQueue { [self] in
                continuation.resume(returning: readOnQueue(target).path)
            }
        }
    }

    // MARK: - On the queue

    /// Resolves one name on the pool; a request while one is in flight runs once more after it.
    func resolve(_ name: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard hosts[name] != nil else { return }
        if hosts[name]!.inFlight {
            hosts[name]!.resolveAgain = true
            return
        }
        hosts[name]!.inFlight = true
        counters.resolutions += 1
        resolverPool.submit(ResolverPool.Job(name: name) { [weak self] outcome in
            guard let self else { return }
            // From the waiter's thread: with no dispatch worker to be had, `queue.async` would hang.
            self.deferOnQueue { self.resolutionFinished(name, outcome) }
        })
    }

    /// Resolves every name again: the network or the resolver's configuration changed.
    func resolveAllHosts() {
        for name in hosts.keys { resolve(name) }
    }

    private func resolutionFinished(_ name: String, _ outcome: ResolutionOutcome) {
        guard var entry = hosts[name] else { return }
        let before = entry.resolution
        entry.inFlight = false
        entry.apply(outcome)
        entry.releaseWaiters()
        let again = entry.resolveAgain
        entry.resolveAgain = false
        hosts[name] = entry
        if case .temporaryFailure(let text) = outcome {
            logger.debug("name resolution failed for now", metadata: ["name": "\(name)", "error": "\(text)"])
        }
        if entry.resolution != before || before.state == .pending {
            publishEvaluations(ofHost: name)
        }
        if again { resolve(name) }
    }

    private func firstResolutionTimedOut(_ name: String) {
        guard hosts[name]?.resolution.state == .pending else { return }
        hosts[name]!.resolution.state = .failed
        hosts[name]!.releaseWaiters()
        publishEvaluations(ofHost: name)
    }

    /// Re-resolves `name` every shortest interval of its monitors, on the wait loop's clock.
    private func armTimer(for name: String) {
        guard let interval = hosts[name]?.shortestInterval, hosts[name]?.timerInterval != interval else { return }
        hosts[name]?.timerInterval = interval
        scheduleReresolution(of: name, after: interval)
    }

    private func scheduleReresolution(of name: String, after interval: Int) {
        hosts[name]?.timer.map { waiter?.cancel($0) }
        hosts[name]?.timer = waiter?.schedule(at: .now() + .nanoseconds(interval)) { [weak self] in
            guard let self, let interval = hosts[name]?.timerInterval else { return }
            resolve(name)
            scheduleReresolution(of: name, after: interval)
        }
    }

    /// Follows the files the engine reads, in its one inotify instance: resolv.conf and hosts (and
    /// their `/etc/netns/NAME` copies), resolved's upstream servers and networkd's link state files.
    func startWatchingConfiguration() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard configurationWatcher == nil, let waiter else { return }
        configurationWatcher = ConfigurationWatcher(namespace: namespace, sources: nameServers.sources,
                                                    waiter: waiter) { [weak self] changes in
            self?.configurationChanged(changes)
        }
    }

    /// Names resolve again when the resolver's files or its servers changed, and every path is
    /// evaluated again since `supportsDNS` may have changed.
    private func configurationChanged(_ changes: ConfigurationWatcher.Changes) {
        var serversMoved = !changes.isDisjoint(with: [.resolver, .resolvedServers])
        if changes.contains(.networkdLinks) { serversMoved = networkdLinksChanged() || serversMoved }
        guard serversMoved else { return }
        logger.debug("resolver configuration changed", metadata: ["namespace": "\(namespace)"])
        resolverConfigurationChanged()
        if !hosts.isEmpty {
            if changes.contains(.resolver) { resolverPool.configurationChanged() }
            resolveAllHosts()
        }
        publishEvaluationsOfAll()
    }
}
