import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch

/// The monitor's side of connectivity probing: the prober's answers enter here and
/// leave through the same numbered, deduplicated, generation-gated delivery as the engine's paths.
extension MonitorCore: ConnectivitySubscriber {
    /// Publishes the path `body` makes (`State.publish`), for the probe's answers; nothing while a
    /// host name's placeholder stands (its first real path comes from the engine).
    func prepareLocked(_ body: (inout State) -> NetworkPath?) -> PendingDelivery? {
        let work = state.withLock { state -> (DispatchQueue, DeliveryChannel.Delivery)? in
            guard let path = body(&state), state.hasState else { return nil }
            return state.publish(path)
        }
        guard let (queue, delivery) = work else { return nil }
        return PendingDelivery(core: self, queue: queue, delivery: delivery)
    }

    /// Sets (or clears) the prober, and re-delivers the current path with the new overlay.
    package func setConnectivityProber(_ prober: (any MonitorProber)?) {
        var old: (any MonitorProber)?
        var event = ConnectivityOverlay.Event.nothing
        let pending = prepareLocked { state in
            old = state.prober
            state.prober = prober
            state.connectivity.replaceProber(probing: prober != nil, current: state.current)
            let path: NetworkPath
            (path, event) = state.connectivity.recompose(current: state.current)
            return path
        }
        if let old, old !== prober { old.unsubscribe(self) }
        prober?.subscribe(self)
        pending?.send()
        connectivityEvent(event)
    }

    package var connectivityProber: (any MonitorProber)? { state.withLock { $0.prober } }

    /// A probe's answer for `epoch`; dropped when the path moved on since.
    package func applyConnectivity(_ answer: ConnectivityAnswer, epoch: UInt64) {
        let pending = prepareLocked { state in
            guard state.connectivity.accept(answer, epoch: epoch) else { return nil }
            return state.connectivity.recompose(current: state.current).0
        }
        pending?.send()
    }

    /// The current epoch, when this monitor wants probing now: a probe set, a satisfied path, and
    /// someone listening (scheduled or iterated), unless `evenIfIdle`.
    package func connectivityEpoch(evenIfIdle: Bool = false) -> (UInt64, ConnectivityKey)? {
        state.withLock { state in
            guard let key = state.connectivity.key, evenIfIdle || state.isListening else { return nil }
            return (state.connectivity.epoch, key)
        }
    }

    /// `path` (the engine's) with this monitor's connectivity answer on it.
    package func composingConnectivity(_ path: NetworkPath) -> NetworkPath {
        state.withLock { $0.connectivity.peek(path) }
    }

    /// Tells the prober what a composition found; never under the lock.
    func connectivityEvent(_ event: ConnectivityOverlay.Event) {
        switch event {
        case .nothing: return
        case .probe: connectivityProber?.pathChanged()
        case .stop: connectivityProber?.pathWentDown()
        }
    }

    /// The monitor started or stopped listening (scheduled, iterated, unscheduled, cancelled): a
    /// probe only it wanted stops, and once nobody listens its answer is forgotten, so that a
    /// restart says `unknown` until probed instead of an answer that aged unseen.
    package func connectivityListenersChanged() {
        let prober = state.withLock { state -> (any MonitorProber)? in
            if !state.isListening { state.connectivity.forgetAnswer() }
            return state.prober
        }
        prober?.reconsider()
    }
}
