import ReachabilityLoop
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
        identity.logger.notice("monitored network namespace is gone", metadata: ["namespace": "\(identity.namespace)"])
        // The loop runs what was posted before this, then ends and lets the engine go.
        loop.stop()
        report.publishVanished()
        sockets = nil
        namespaceWatch = nil
        resolverConfiguration.watcher = nil
        names.namespaceVanished()
        EngineRegistry.forget(identity: identity.inode, policy: identity.policy, loop: loop)
        for core in questions.subscriptions.all {
            _ = core.take(.unsatisfied(.namespaceUnavailable))
        }
        LoopThread.sendQueued()
    }
}
