import ReachabilityDelivery
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
extension PathMonitor: AsyncSequence {
    public typealias Element = NetworkPath
    public typealias Failure = Never

    /// Iterates the paths of a monitor; holds the monitor, so `for await path in try PathMonitor(...)` works.
    public struct Iterator: AsyncIteratorProtocol {
        // The monitor lives as long as the iteration: nothing else may hold it.
        let monitor: PathMonitor
        var paths: AsyncStream<NetworkPath>.Iterator

        public mutating func next() async -> NetworkPath? {
            await paths.next()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> NetworkPath? {
            await paths.next(isolation: actor)
        }
    }

    /// Iterating starts monitoring: each iteration is a subscription of its own, whose first element
    /// is the current path, then one per change of the path. It ends when the monitor is cancelled
    /// (`cancel()`); when the consuming task is cancelled, its subscription ends and nothing is left behind.
    /// It keeps the newest 64 paths while the consumer is busy; `paths(bufferingPolicy:)` chooses.
    public func makeAsyncIterator() -> Iterator {
        Iterator(monitor: self, paths: paths(bufferingPolicy: Self.defaultBufferingPolicy).makeAsyncIterator())
    }

    /// What iterating a monitor keeps while its consumer is busy.
    static let defaultBufferingPolicy = AsyncStream<NetworkPath>.Continuation.BufferingPolicy.bufferingNewest(64)

    /// A subscription of its own, as iterating the monitor makes, with a buffering policy of your
    /// choice: `.unbounded` for a consumer that must not lose a path, `.bufferingNewest(1)` for one
    /// that must not lag. The sequence does not hold the monitor: keep it while you iterate.
    public func paths(bufferingPolicy: AsyncStream<NetworkPath>.Continuation.BufferingPolicy) -> AsyncStream<NetworkPath> {
        let (stream, continuation) = AsyncStream.makeStream(of: NetworkPath.self, bufferingPolicy: bufferingPolicy)
        guard let id = core.addStream(continuation) else {
            continuation.finish()
            return stream
        }
        let core = self.core
        let engine = self.engine
        continuation.onTermination = { _ in
            core.removeStream(id)
            if !core.isActive { engine?.unsubscribe(core) }
            core.connectivityListenersChanged()
        }
        subscribe()
        core.connectivityListenersChanged()
        return stream
    }
}
