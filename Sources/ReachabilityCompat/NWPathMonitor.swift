import Dispatch
import ReachabilitySystem

// Network framework's `NWPathMonitor`, in Apple's shape (iOS and macOS 26 SDK), over
// NetworkReachability's `PathMonitor`.

/// `NWPathMonitor`: watches the general path of `ReachabilityCompat.defaultNamespace`, with
/// Apple's members: `pathUpdateHandler`, `start(queue:)`, `cancel()`, `currentPath`, `queue`,
/// `debugDescription`, and `for await path in NWPathMonitor()`.
///
/// A thin class over ``PathMonitor`` (``pathMonitor``), whose paths it hands over as ``NWPath``.
/// Unlike Apple's, `cancel()` is a barrier (when it returns, no handler of this monitor runs or
/// starts) and the monitor can be started again.
public final class NWPathMonitor: Sendable {
    /// NetworkReachability's monitor this one stands for (not an Apple member).
    public let pathMonitor: PathMonitor
    private let state = LockedState<State>(State())

    private struct State: Sendable {
        var handler: (@Sendable (NWPath) -> Void)?
        var queue: DispatchQueue?
    }

    /// Wraps NetworkReachability's monitor (not an Apple initialiser).
    public init(_ pathMonitor: PathMonitor) {
        self.pathMonitor = pathMonitor
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
    /// `@preconcurrency`, as Apple's: a handler that captures state that is not `Sendable` gets a
    /// warning in Swift 6 code, not an error.
    @preconcurrency public var pathUpdateHandler: (@Sendable (_ newPath: NWPath) -> Void)? {
        get { state.withLock { $0.handler } }
        set {
            state.withLock { $0.handler = newValue }
            if let newValue {
                pathMonitor.pathUpdateHandler = { @Sendable path in newValue(NWPath(path)) }
            } else {
                pathMonitor.pathUpdateHandler = nil
            }
        }
    }

    /// The path now.
    public var currentPath: NWPath { NWPath(pathMonitor.currentPath) }

    /// The queue given to `start(queue:)`; nil before it.
    public var queue: DispatchQueue? { state.withLock { $0.queue } }

    /// Starts delivering paths to `pathUpdateHandler` on `queue`.
    public func start(queue: DispatchQueue) {
        state.withLock { $0.queue = queue }
        pathMonitor.start(queue: queue)
    }

    /// Stops delivering paths and ends every `for await` over this monitor.
    public func cancel() {
        pathMonitor.cancel()
    }
}

extension NWPathMonitor: CustomDebugStringConvertible {
    /// The monitor's target, its latest flags and whether it was started: `PathMonitor`'s description.
    public var debugDescription: String {
        "<NWPathMonitor> \(pathMonitor)\(queue.map { " on \($0.label)" } ?? "")"
    }
}

extension NWPathMonitor: AsyncSequence {
    /// Each element is a path.
    public typealias Element = NWPath
    /// Iterating never fails.
    public typealias Failure = Never

    /// Iterates the paths as `NWPath`; holds the monitor, so `for await path in NWPathMonitor()` works.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var paths: PathMonitor.Iterator

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
        AsyncIterator(paths: pathMonitor.makeAsyncIterator())
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
