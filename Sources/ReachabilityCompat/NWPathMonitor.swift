import Dispatch
import ReachabilitySystem

// Network framework's `NWPathMonitor`, in Apple's shape (iOS and macOS 26 SDK), over
// NetworkReachability's `PathMonitor`.

/// `NWPathMonitor`: watches the general path of `ReachabilityCompat.defaultNamespace`, with
/// Apple's members: `pathUpdateHandler`, `start(queue:)`, `cancel()`, `currentPath`, `queue`,
/// `debugDescription`, and `for await path in NWPathMonitor()`.
///
/// A thin class over a ``PathMonitoring`` (``monitor``): a ``PathMonitor``, or in a test a
/// `FakePathMonitor` (`NWPathMonitor(FakePathMonitor(path: .online()))`), whose paths it hands
/// over as ``NWPath``. Unlike Apple's, `cancel()` of one over a `PathMonitor` is a barrier (when it
/// returns, no handler of this monitor runs or starts) and the monitor can be started again.
public final class NWPathMonitor: Sendable {
    /// The monitor this one stands for: a ``PathMonitor``, or any ``PathMonitoring`` it was made
    /// over, such as a `FakePathMonitor` (not an Apple member).
    public let monitor: any PathMonitoring
    private let state = LockedState<State>(State())

    private struct State: Sendable {
        var handler: (@Sendable (NWPath) -> Void)?
        var queue: DispatchQueue?
    }

    /// NetworkReachability's monitor this one stands for, when it was made over a ``PathMonitor``
    /// (every Apple initialiser makes one; not an Apple member). Nil for one made over another
    /// ``PathMonitoring`` (a `FakePathMonitor`): read ``monitor`` there. Implicitly unwrapped, so
    /// code written when this was a `PathMonitor` (`monitor.pathMonitor.setupError`) compiles as it is.
    public var pathMonitor: PathMonitor! { monitor as? PathMonitor }

    /// Wraps a monitor (not an Apple initialiser): NetworkReachability's ``PathMonitor``, or in a
    /// test a `FakePathMonitor` of the `NetworkReachabilityTesting` product, so that code written
    /// against Apple's `NWPathMonitor` runs with no kernel, no namespace and no root.
    public init(_ monitor: any PathMonitoring) {
        self.monitor = monitor
    }

    /// The general path (the better of `0.0.0.0` and `::`), made without `try`, as Apple's cannot
    /// fail: when `ReachabilityCompat.defaultNamespace` cannot be opened, the path is unsatisfied
    /// and `pathMonitor.setupError` says why.
    public convenience init() {
        self.init(PathMonitor(requiredInterfaceType: nil, prohibitedInterfaceTypes: [], namespace: defaultNamespace))
    }

    /// The general path over interfaces of `requiredInterfaceType` only.
    public convenience init(requiredInterfaceType: NWInterface.InterfaceType) {
        self.init(PathMonitor(requiredInterfaceType: requiredInterfaceType.interfaceType, prohibitedInterfaceTypes: [],
                              namespace: defaultNamespace))
    }

    /// The general path over interfaces of any type but `prohibitedInterfaceTypes`.
    public convenience init(prohibitedInterfaceTypes: [NWInterface.InterfaceType]) {
        self.init(PathMonitor(requiredInterfaceType: nil, prohibitedInterfaceTypes: prohibitedInterfaceTypes.map(\.interfaceType),
                              namespace: defaultNamespace))
    }

    /// Called on the monitor's queue with each new path, the current one first after `start(queue:)`.
    ///
    /// `@preconcurrency` and `@Sendable`, as Apple's: a handler that captures state that is not
    /// `Sendable` is a warning in Swift 5 mode with strict checking, and an error in Swift 6 mode,
    /// as against Apple's declaration.
    @preconcurrency public var pathUpdateHandler: (@Sendable (_ newPath: NWPath) -> Void)? {
        get { state.withLock { $0.handler } }
        set {
            state.withLock { $0.handler = newValue }
            if let newValue {
                monitor.pathUpdateHandler = { @Sendable path in newValue(NWPath(path)) }
            } else {
                monitor.pathUpdateHandler = nil
            }
        }
    }

    /// The path now.
    public var currentPath: NWPath { NWPath(monitor.currentPath) }

    /// The queue given to `start(queue:)`; nil before it.
    public var queue: DispatchQueue? { state.withLock { $0.queue } }

    /// Starts delivering paths to `pathUpdateHandler` on `queue`.
    public func start(queue: DispatchQueue) {
        state.withLock { $0.queue = queue }
        monitor.start(queue: queue)
    }

    /// Stops delivering paths and ends every `for await` over this monitor.
    public func cancel() {
        monitor.cancel()
    }
}

extension NWPathMonitor: CustomDebugStringConvertible {
    /// The monitor's target, its latest flags and whether it was started: `PathMonitor`'s description.
    public var debugDescription: String {
        "<NWPathMonitor> \(monitor)\(queue.map { " on \($0.label)" } ?? "")"
    }
}

extension NWPathMonitor: AsyncSequence {
    /// Each element is a path.
    public typealias Element = NWPath
    /// Iterating never fails.
    public typealias Failure = Never

    /// Iterates the paths as `NWPath`; holds the monitor, so `for await path in NWPathMonitor()` works.
    public struct AsyncIterator: AsyncIteratorProtocol {
        // The monitor lives as long as the iteration, as iterating a `PathMonitor` holds it.
        let monitor: any PathMonitoring
        var paths: AsyncStream<NetworkPath>.Iterator

        /// The next path; nil once the monitor is cancelled.
        public mutating func next() async -> NWPath? {
            await paths.next().map(NWPath.init)
        }

        /// The next path, on `actor`; nil once the monitor is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> NWPath? {
            await paths.next(isolation: actor).map(NWPath.init)
        }
    }

    /// Iterating starts monitoring: the current path first, then one per change, until `cancel()`
    /// or the consuming task is cancelled.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(monitor: monitor, paths: monitor.paths().makeAsyncIterator())
    }
}

extension PathMonitor {
    /// `PathMonitor()` in a file that imports ReachabilityCompat: the general path of
    /// `ReachabilityCompat.defaultNamespace`, made without `try`.
    ///
    /// When that namespace cannot be opened, the monitor reports `unsatisfied` with
    /// `namespaceUnavailable` and its `setupError` says why; it never stops the program.
    public convenience init() {
        self.init(requiredInterfaceType: nil, prohibitedInterfaceTypes: [], namespace: defaultNamespace)
    }
}
