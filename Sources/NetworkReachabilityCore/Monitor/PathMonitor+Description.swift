import ReachabilityDelivery
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
/// The callback context a monitor's description asks to describe its `info`; held weakly, so
/// describing never delays the context's `release`.
struct DescribedContext {
    weak var context: CallbackContext?
}

extension PathMonitor: CustomStringConvertible {
    /// Apple's shape of a target's description: its address, the target, its latest flags, and
    /// what the callback context's `copyDescription` says of its `info` (called now, as Apple's
    /// `CFCopyDescription` of a target does). Never blocks for a resolution.
    public var description: String {
        let address = String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16)
        var text = "<PathMonitor 0x\(address)> {target = \(targetDescription), flags = \(core.current.flags)"
        if let context = describedContext.withLock({ $0.context }), let contextText = context.describe() {
            text += ", context = \(contextText)"
        }
        return text + "}"
    }

    /// Names the context whose `copyDescription` the description calls; nil for none.
    func describeContext(_ context: CallbackContext?) {
        describedContext.withLock { $0.context = context }
    }
}
