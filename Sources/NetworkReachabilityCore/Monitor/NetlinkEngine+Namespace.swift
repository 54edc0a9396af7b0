import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch
import Logging

/// The engine's namespace goes away.
extension NetlinkEngine {
    /// The namespace is gone: close the sockets (they kept the kernel's namespace alive), tell
    /// every monitor, stop resolving, and leave the registry.
    func namespaceVanished() {
        guard sockets != nil else { return }
        logger.notice("monitored network namespace is gone", metadata: ["namespace": "\(namespace)"])
        // The loop runs what was posted before this, then ends and lets the engine go.
        loop.stop()
        published.withLock { $0.vanished = true }
        sockets = nil
        vanishWatcher = nil
        configurationWatcher = nil
        for name in hosts.keys {
            hosts[name]?.timer = nil  // the stopped loop runs no timer
            // A name still queued in the stopped pool would never finish, and every `flags()`
            // would wait out the first-resolution timeout for it: it has failed.
            if hosts[name]?.resolution.state == .pending { hosts[name]?.resolution.state = .failed }
            hosts[name]?.releaseWaiters()
        }
        resolverPoolIfStarted?.stop()
        EngineRegistry.forget(identity: identity, policy: policy, loop: loop)
        for core in subscribers.values {
            core.publish(.unsatisfied(.namespaceUnavailable)).deliver()
        }
    }
}
