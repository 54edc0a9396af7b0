import Dispatch
import Foundation
import NetworkReachability

/// A `PathMonitoring` that a test drives path by path: no kernel, no namespace, no root.
///
/// ```swift
/// let monitor = FakePathMonitor(path: .offline())
/// let service = MyService(monitor: monitor)      // takes `any PathMonitoring`
/// monitor.send(.online())
/// monitor.send(flags: [])                       // the SCNetworkReachability face: a path made from flags
/// ```
///
/// Every `send` becomes the current path and is delivered, in order, to each sequence from
/// `paths(bufferingPolicy:)` and, once `start(queue:)` was called, to `pathUpdateHandler` and the
/// flags handler on the queue. Unlike a `PathMonitor`, it delivers a path equal to the last one
/// too: the test says exactly what happens.
public final class FakePathMonitor: PathMonitoring, @unchecked Sendable {
    // @unchecked: every stored var is touched only with `lock` held.
    private let lock = NSLock()
    private var path: NetworkPath
    private var queue: DispatchQueue?
    private var handler: (@Sendable (NetworkPath) -> Void)?
    private var flagsHandler: (@Sendable (ReachabilityFlags) -> Void)?
    private var streams: [UInt64: AsyncStream<NetworkPath>.Continuation] = [:]
    private var nextStreamID: UInt64 = 0
    private var starts = 0
    private var cancels = 0

    /// What the test said; nothing is opened.
    public let namespace: NetworkNamespace
    /// What the test said: a fake with one plays a monitor that cannot watch its namespace.
    public let setupError: ReachabilityError?

    /// - Parameters:
    ///   - path: the current path until the first `send`; default: offline.
    ///   - namespace: what `namespace` says; nothing is opened.
    ///   - setupError: set it to play a monitor whose namespace cannot be opened: `flags()` throws it.
    public init(path: NetworkPath = .offline(), namespace: NetworkNamespace = .current, setupError: ReachabilityError? = nil) {
        self.path = path
        self.namespace = namespace
        self.setupError = setupError
    }

    // MARK: - Driving it

    /// Makes `path` the current path and delivers it.
    public func send(_ path: NetworkPath) {
        let (queue, streams) = lock.withLock { () -> (DispatchQueue?, [AsyncStream<NetworkPath>.Continuation]) in
            self.path = path
            return (self.queue, Array(self.streams.values))
        }
        streams.forEach { $0.yield(path) }
        if let queue { queue.async { self.deliverToHandlers(path) } }
    }

    /// Sends the path a monitor would report for `flags` (see `NetworkPath.fake(flags:)`).
    public func send(flags: ReachabilityFlags) {
        send(.fake(flags: flags))
    }

    /// Whether `start(queue:)` was called since the last `cancel()`.
    public var isStarted: Bool { lock.withLock { queue != nil } }
    /// How many times `start(queue:)` was called.
    public var startCount: Int { lock.withLock { starts } }
    /// How many times `cancel()` was called.
    public var cancelCount: Int { lock.withLock { cancels } }
    /// How many sequences from `paths(bufferingPolicy:)` are still being iterated.
    public var subscriberCount: Int { lock.withLock { streams.count } }

    // MARK: - PathMonitoring

    /// The last path sent, or the one given to `init`.
    public var currentPath: NetworkPath { lock.withLock { path } }

    /// The current path's flags; throws `setupError` when there is one.
    public func flags() throws(ReachabilityError) -> ReachabilityFlags {
        if let setupError { throw setupError }
        return currentPath.flags
    }

    /// Called on the start queue with the current path, then with each `send`.
    public var pathUpdateHandler: (@Sendable (NetworkPath) -> Void)? {
        get { lock.withLock { handler } }
        set { lock.withLock { handler = newValue } }
    }

    /// Sets or clears a closure called on the start queue with the flags of each path delivered.
    public func setCallback(_ handler: (@Sendable (ReachabilityFlags) -> Void)?) {
        lock.withLock { flagsHandler = handler }
    }

    /// Delivers the current path on `queue` at once, as a `PathMonitor` does, then each `send`.
    public func start(queue: DispatchQueue) {
        let path = lock.withLock { () -> NetworkPath in
            self.queue = queue
            starts += 1
            return self.path
        }
        queue.async { self.deliverToHandlers(path) }
    }

    /// Stops the handlers' deliveries and ends every sequence of paths.
    public func cancel() {
        let streams = lock.withLock { () -> [AsyncStream<NetworkPath>.Continuation] in
            queue = nil
            cancels += 1
            defer { self.streams = [:] }
            return Array(self.streams.values)
        }
        streams.forEach { $0.finish() }
    }

    /// A sequence of its own: the current path first, then each `send`, until `cancel()`.
    public func paths(bufferingPolicy: AsyncStream<NetworkPath>.Continuation.BufferingPolicy) -> AsyncStream<NetworkPath> {
        let (stream, continuation) = AsyncStream.makeStream(of: NetworkPath.self, bufferingPolicy: bufferingPolicy)
        let id = lock.withLock { () -> UInt64 in
            nextStreamID += 1
            streams[nextStreamID] = continuation
            // Yielded with the lock held, so a concurrent `send` cannot overtake the current path.
            continuation.yield(path)
            return nextStreamID
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// On the queue: the handlers as they are now, unless cancelled meanwhile.
    private func deliverToHandlers(_ path: NetworkPath) {
        let handlers = lock.withLock { queue == nil ? nil : (handler, flagsHandler) }
        guard let (handler, flagsHandler) = handlers else { return }
        handler?(path)
        flagsHandler?(path.flags)
    }
}
