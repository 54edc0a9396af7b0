import ReachabilitySystem
import Dispatch
import NetworkReachability

/// A `PathMonitoring` that a test drives path by path: no kernel, no namespace, no root.
///
/// ```swift
/// let monitor = FakePathMonitor(path: .offline())
/// let service = MyService(monitor: monitor)      // takes `any PathMonitoring`
/// monitor.send(.online())
/// monitor.send(.online(connectivity: .full))    // online, and the probe got through
/// monitor.send(.captivePortal())                // online, behind a captive portal
/// monitor.send(flags: [])                       // the SCNetworkReachability face: a path made from flags
/// ```
///
/// Every `send` becomes the current path and is delivered, in order, to each sequence from
/// `paths(bufferingPolicy:)` and, once `start(queue:)` was called, to `pathUpdateHandler` and the
/// flags handler on the queue. Unlike a `PathMonitor`, it delivers a path equal to the last one
/// too: the test says exactly what happens.
public final class FakePathMonitor: PathMonitoring, Sendable {
    /// What a test drove, behind the package's one lock (`LockedState`).
    private struct State {
        var path: NetworkPath
        var queue: DispatchQueue?
        var handler: (@Sendable (NetworkPath) -> Void)?
        var flagsHandler: (@Sendable (ReachabilityFlags) -> Void)?
        var streams: [UInt64: AsyncStream<NetworkPath>.Continuation] = [:]
        var nextStreamID: UInt64 = 0
        var starts = 0
        var cancels = 0
    }

    private let state: LockedState<State>

    /// What the test said; nothing is opened.
    public let namespace: NetworkNamespace
    /// What the test said: a fake with one plays a monitor that cannot watch its namespace.
    public let setupError: ReachabilityError?

    /// - Parameters:
    ///   - path: the current path until the first `send`; default: offline.
    ///   - namespace: what `namespace` says; nothing is opened.
    ///   - setupError: set it to play a monitor whose namespace cannot be opened: `flags()` throws it.
    public init(path: NetworkPath = .offline(), namespace: NetworkNamespace = .current, setupError: ReachabilityError? = nil) {
        self.state = LockedState(State(path: path))
        self.namespace = namespace
        self.setupError = setupError
    }

    // MARK: - Driving it

    /// Makes `path` the current path and delivers it.
    public func send(_ path: NetworkPath) {
        let (queue, streams) = state.withLock { state -> (DispatchQueue?, [AsyncStream<NetworkPath>.Continuation]) in
            state.path = path
            return (state.queue, Array(state.streams.values))
        }
        streams.forEach { $0.yield(path) }
        if let queue { queue.async { self.deliverToHandlers(path) } }
    }

    /// Sends the path a monitor would report for `flags` (see `NetworkPath.fake(flags:)`).
    public func send(flags: ReachabilityFlags) {
        send(.fake(flags: flags))
    }

    /// Whether `start(queue:)` was called since the last `cancel()`.
    public var isStarted: Bool { state.withLock { $0.queue != nil } }
    /// How many times `start(queue:)` was called.
    public var startCount: Int { state.withLock { $0.starts } }
    /// How many times `cancel()` was called.
    public var cancelCount: Int { state.withLock { $0.cancels } }
    /// How many sequences from `paths(bufferingPolicy:)` are still being iterated.
    public var subscriberCount: Int { state.withLock { $0.streams.count } }

    // MARK: - PathMonitoring

    /// The last path sent, or the one given to `init`.
    public var currentPath: NetworkPath { state.withLock { $0.path } }

    /// The last path sent, or the one given to `init`, at once: a fake never waits.
    public func fetchCurrentPath() async -> NetworkPath { currentPath }

    /// The current path's flags; throws `setupError` when there is one.
    public func flags() throws(ReachabilityError) -> ReachabilityFlags {
        if let setupError { throw setupError }
        return currentPath.flags
    }

    /// Called on the start queue with the current path, then with each `send`.
    public var pathUpdateHandler: (@Sendable (NetworkPath) -> Void)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    /// Sets or clears a closure called on the start queue with the flags of each path delivered.
    public func setCallback(_ handler: (@Sendable (ReachabilityFlags) -> Void)?) {
        state.withLock { $0.flagsHandler = handler }
    }

    /// Delivers the current path on `queue` at once, as a `PathMonitor` does, then each `send`.
    public func start(queue: DispatchQueue) {
        let path = state.withLock { state -> NetworkPath in
            state.queue = queue
            state.starts += 1
            return state.path
        }
        queue.async { self.deliverToHandlers(path) }
    }

    /// Stops the handlers' deliveries and ends every sequence of paths.
    public func cancel() {
        let streams = state.withLock { state -> [AsyncStream<NetworkPath>.Continuation] in
            state.queue = nil
            state.cancels += 1
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        streams.forEach { $0.finish() }
    }

    /// A sequence of its own: the current path first, then each `send`, until `cancel()`.
    public func paths(bufferingPolicy: AsyncStream<NetworkPath>.Continuation.BufferingPolicy) -> AsyncStream<NetworkPath> {
        let (stream, continuation) = AsyncStream.makeStream(of: NetworkPath.self, bufferingPolicy: bufferingPolicy)
        let id = state.withLock { state -> UInt64 in
            state.nextStreamID += 1
            state.streams[state.nextStreamID] = continuation
            // Yielded with the lock held, so a concurrent `send` cannot overtake the current path.
            continuation.yield(state.path)
            return state.nextStreamID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// On the queue: the handlers as they are now, unless cancelled meanwhile.
    private func deliverToHandlers(_ path: NetworkPath) {
        let handlers = state.withLock { $0.queue == nil ? nil : ($0.handler, $0.flagsHandler) }
        guard let (handler, flagsHandler) = handlers else { return }
        handler?(path)
        flagsHandler?(path.flags)
    }
}
