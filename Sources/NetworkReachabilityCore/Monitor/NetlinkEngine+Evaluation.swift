import Dispatch

/// Evaluation passes and deliveries, on the engine's queue.
extension NetlinkEngine {
    func reevaluateSubscribers() {
        deliver(to: Array(subscribers.values))
    }

    /// Re-evaluates the subscribers that watch `name`.
    func reevaluateSubscribers(ofHost name: String) {
        deliver(to: subscribers.values.filter { $0.target == .host(name) })
    }

    /// Deliveries go out in batches of this many monitors: the first monitors hear of a change
    /// before the last are evaluated, and a batch costs one work item per callback queue.
    static var deliveryBatch: Int { EvaluationPass<RouteOracle>.batchSize }

    /// Evaluates `cores`' targets and delivers what changed. - Returns: the cores whose path did not change.
    @discardableResult
    func deliver(to cores: [MonitorCore]) -> [MonitorCore] {
        guard !cores.isEmpty else { return [] }
        counters.reevaluations += 1
        var batch: [MonitorCore.PendingDelivery] = []
        batch.reserveCapacity(min(cores.count, Self.deliveryBatch))
        var unchanged: [MonitorCore] = []
        evaluate(cores.map(\.target)) { position, path in
            guard let path else { return }
            let core = cores[position]
            let update = core.record(path)
            if update.changed { metrics?.record(path, of: core.target) } else { unchanged.append(core) }
            guard let delivery = update.delivery else { return }
            batch.append(delivery)
            if batch.count == Self.deliveryBatch {
                MonitorCore.dispatch(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        MonitorCore.dispatch(batch)
        return unchanged
    }

    /// The resolution a host target is evaluated with; nil for other targets.
    func resolution(for target: MonitorTarget) -> HostResolution? {
        guard case .host(let name) = target else { return nil }
        return hosts[name]?.resolution ?? HostResolution()
    }

    /// - Returns: nil for a name whose first resolution has not finished, unless `includingPending`.
    func evaluate(_ targets: [MonitorTarget], includingPending: Bool = false) -> [NetworkPath?] {
        var paths: [NetworkPath?] = []
        paths.reserveCapacity(targets.count)
        evaluate(targets, includingPending: includingPending) { _, path in paths.append(path) }
        return paths
    }

    /// Evaluates `targets` in order, handing each path (nil: a name still pending) to `body` as
    /// soon as it is made; all share one `EvaluationPass`.
    func evaluate(_ targets: [MonitorTarget], includingPending: Bool = false,
                  each body: (Int, NetworkPath?) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let sockets else {
            for position in targets.indices { body(position, .unsatisfied(.namespaceUnavailable)) }
            return
        }
        if cachedSupportsDNS == nil || configurationWatcher?.isWatching != true {
            cachedSupportsDNS = nameServers.refresh()
        }
        // The interfaces' preference is asked once per routing generation.
        let known = preferenceCache?.generation == routingGeneration ? preferenceCache?.metrics : nil
        var pass = EvaluationPass(snapshot: snapshot, supportsDNS: cachedSupportsDNS ?? false,
                                  oracle: RouteOracle(socket: sockets.lookup), knownPreference: known)
        if pass.askedPreference { preferenceCache = (routingGeneration, pass.preference) }
        pass.evaluate(targets, includingPending: includingPending, resolution: resolution(for:), each: body)
        counters.lookups += pass.lookups
        noteExpiries(pass.answers)
    }
}

extension RouteOracle: RouteAnswering {
    func answers(_ requests: [RouteRequest]) -> [RouteAnswer] {
        withExpiries(socket.lookup(requests), for: requests)
    }
}
