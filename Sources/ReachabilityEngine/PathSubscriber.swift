import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel

/// What an engine delivers paths to: a monitor, as the layer above the engine keeps one. The
/// engine holds its subscribers by identity and through this protocol, never as a monitor type,
/// so nothing below the monitors names them and no reference cycle runs through the engine.
package protocol PathSubscriber: AnyObject, Sendable {
    /// The question the subscriber asks.
    var target: MonitorTarget { get }

    /// Takes the engine's path for `target`. On a loop's thread the delivery it owes waits in
    /// the thread's outbox until the engine sends its batch (`LoopThread.sendQueued()`) or the
    /// turn ends; on any other thread it goes at once.
    ///
    /// - Returns: whether the path differs from the one the subscriber held.
    func take(_ path: NetworkPath) -> Bool
}
