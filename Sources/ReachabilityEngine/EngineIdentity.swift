import ReachabilityLoop
import Logging
import ReachabilityModel
import ReachabilityNetlink

/// Who an engine is, fixed for its life: the namespace as it was named, the namespace's inode
/// (how the registry tells two names of one namespace apart), how it classifies links, and the
/// logger it speaks through.
struct EngineIdentity {
    let namespace: NetworkNamespace
    let inode: NamespaceIdentity
    /// Monitors with another policy have another engine (`EngineRegistry` keys by namespace and policy).
    let policy: InterfacePolicy
    let logger = Logger(label: "network-reachability")
}
