import ReachabilityDelivery
import ReachabilityProbing
import ReachabilityEngine
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Watches whether a target can be reached, with the lifecycle of `SCNetworkReachability` and the
/// dialect of `NWPathMonitor`, over the kernel's own routing decisions.
///
/// Create it for an address, an address pair, the zero address or the general path; the first
/// evaluation is made before the initialiser returns. Schedule it on a queue with
/// `setDispatchQueue(_:)` or `start(queue:)` to get a first callback with the current state and
/// then one callback per change; `unschedule()` (or `cancel()`) stops them. All monitors of a
/// namespace share one netlink engine.
///
/// Every callback of a monitor (the C callback, the flags and path handlers, the delegate) runs
/// under that monitor's callout lock, a recursive lock that `unschedule()`, `cancel()` and
/// `setDispatchQueue(nil)` take after closing the gate: that is how they guarantee that, once they
/// return, no callback of the monitor is running. It follows that a callback may unschedule,
/// cancel or release its own monitor, but must not wait for another thread that unschedules the
/// same monitor: that thread waits for the callback to return, and the two wait for each other.
public final class PathMonitor: Sendable {
    /// `SCNetworkReachabilityContext`: the `info` pointer handed to the C callback, retained with
    /// `retain` when set and released with `release` exactly once.
    public struct Context {
        /// Must be 0, as Apple's.
        public var version: Int
        /// Passed to the callback as its third argument.
        public var info: UnsafeMutableRawPointer?
        /// Called once with `info` when the callback is set; its result is what the callback receives.
        public var retain: (@convention(c) (UnsafeRawPointer) -> UnsafeRawPointer)?
        /// Called exactly once with the retained `info`, when the callback is replaced or cleared or the monitor goes away.
        public var release: (@convention(c) (UnsafeRawPointer) -> Void)?
        /// Called with the retained `info` when the monitor is described (`description`); the
        /// string it returns is copied and stays the caller's.
        public var copyDescription: (@convention(c) (UnsafeRawPointer) -> UnsafePointer<CChar>?)?

        /// Makes a context, as `SCNetworkReachabilityContext(version:info:retain:release:copyDescription:)`.
        public init(
            version: Int = 0, info: UnsafeMutableRawPointer?,
            retain: (@convention(c) (UnsafeRawPointer) -> UnsafeRawPointer)? = nil,
            release: (@convention(c) (UnsafeRawPointer) -> Void)? = nil,
            copyDescription: (@convention(c) (UnsafeRawPointer) -> UnsafePointer<CChar>?)? = nil
        ) {
            self.version = version
            self.info = info
            self.retain = retain
            self.release = release
            self.copyDescription = copyDescription
        }
    }

    /// `SCNetworkReachabilityCallBack`: the monitor (`Unmanaged<PathMonitor>.fromOpaque` gives it
    /// back), the new flags, and the context's `info`. A closure literal that captures nothing converts to it.
    public typealias Callback = @convention(c) (OpaquePointer, ReachabilityFlags, UnsafeMutableRawPointer?) -> Void

    let core: MonitorCore
    /// Whose `copyDescription` `description` calls: the context of the callback now set.
    let describedContext = LockedState(DescribedContext())
    /// What the prober is made for (`PathMonitor+Connectivity.swift`), kept here so that a setting
    /// made while it asks for no prober (an API CA before the opt-in) is not lost.
    let proberSettings = LockedState(ProberConfiguration())
    /// nil when the non-throwing general-path initialiser could not open its namespace (`setupError` says why).
    let engine: EngineHandle?
    /// Why this monitor cannot watch its namespace: set only by the non-throwing
    /// `init(requiredInterfaceType:prohibitedInterfaceTypes:namespace:interfacePolicy:)` when the
    /// namespace could not be opened. Such a monitor reports `unsatisfied` with
    /// `namespaceUnavailable`, and `flags()` throws this error. nil for every working monitor.
    public let setupError: ReachabilityError?
    /// Set for host-name targets.
    let hostOptions: HostResolutionOptions?
    /// The namespace this monitor watches.
    public let namespace: NetworkNamespace

    /// The target in the library's normal form (`fe80::1%eth0`, `example.com`, `*` for the general path).
    public var targetDescription: String { core.target.description }

    convenience init(target: MonitorTarget, namespace: NetworkNamespace, policy: InterfacePolicy,
                     hostOptions: HostResolutionOptions? = nil) throws(ReachabilityError) {
        let engine = try EngineRegistry.engine(for: namespace, policy: policy)
        self.init(target: target, namespace: namespace, hostOptions: hostOptions, engine: engine)
    }

    /// A monitor whose namespace could not be opened: it says so, and never crashes its host.
    init(unavailable target: MonitorTarget, namespace: NetworkNamespace, error: ReachabilityError) {
        self.engine = nil
        self.setupError = error
        self.namespace = namespace
        self.hostOptions = nil
        self.core = MonitorCore(target: target, initial: .unsatisfied(.namespaceUnavailable))
        core.attach(owner: self)
    }

    init(target: MonitorTarget, namespace: NetworkNamespace, hostOptions: HostResolutionOptions?, engine: EngineHandle) {
        self.engine = engine
        self.setupError = nil
        self.namespace = namespace
        if case .host(let name) = target {
            let options = hostOptions ?? .default
            self.hostOptions = options
            engine.registerHost(name, options: options)
        } else {
            self.hostOptions = nil
        }
        // A name not yet resolved has no state: its placeholder path is never delivered.
        let (initial, isResolved) = engine.readNoting(target)
        self.core = MonitorCore(target: target, initial: initial, hasState: isResolved, metrics: engine.metrics)
        core.attach(owner: self)
    }

    deinit {
        core.tearDown()
        core.connectivityProber?.unsubscribe(core)
        engine?.unsubscribe(core)
        if case .host(let name) = core.target, let hostOptions {
            engine?.unregisterHost(name, options: hostOptions)
        }
    }

    /// Starts the engine's deliveries to the core (the first one at once).
    func subscribe() {
        if let engine {
            engine.subscribe(core)
        } else {
            core.publish(.unsatisfied(.namespaceUnavailable)).deliver()
        }
    }

    /// Stops them, unless the core is still scheduled or iterated.
    func unsubscribeIfIdle() {
        if !core.isActive { engine?.unsubscribe(core) }
    }

    private func readNow() -> NetworkPath {
        engine?.read(core.target) ?? .unsatisfied(.namespaceUnavailable)
    }

    // MARK: - Callbacks

    /// Sets or clears the C callback (`SCNetworkReachabilitySetCallback`).
    ///
    /// The context is copied; its `retain` is called now, and the `release` of the context it
    /// replaces is called once (after a callback in flight returns).
    /// - Returns: true.
    @discardableResult
    public func setCallback(_ callback: Callback?, context: UnsafeMutablePointer<Context>?) -> Bool {
        setCallback(callback, retainedContext: (callback != nil) ? context.map { CallbackContext($0.pointee) } : nil)
    }

    /// The same with the context already retained: `ReachabilityCompat`'s, which describes its
    /// `info` through Apple's `copyDescription`.
    @discardableResult
    package func setCallback(_ callback: Callback?, retainedContext context: CallbackContext?) -> Bool {
        core.setCallback(callback, context: context)
        describeContext(context)
        return true
    }

    /// Sets or clears a closure called with the flags on each change, beside the C callback.
    public func setCallback(_ handler: (@Sendable (ReachabilityFlags) -> Void)?) {
        core.setFlagsHandler(handler)
    }

    // MARK: - Schedule

    /// Schedules the callbacks on `queue`, or unschedules them with nil (`SCNetworkReachabilitySetDispatchQueue`).
    ///
    /// Scheduling delivers the current state at once, even when it is "not reachable", then one
    /// callback per change. When unscheduling returns, no callback of this monitor runs or starts,
    /// unless it was called from inside one. A monitor can be scheduled again.
    /// - Returns: true.
    @discardableResult
    public func setDispatchQueue(_ queue: DispatchQueue?) -> Bool {
        reschedule { _ in .move(to: queue.map { MonitorSchedule(queue: $0) }) }
    }

    /// Schedules the callbacks on the library's own thread, the one that read the kernel's message:
    /// a change reaches them with one thread wake-up instead of two, which is what a program with
    /// many monitors, or one that only records or forwards changes, wants.
    ///
    /// Every guarantee of `setDispatchQueue(_:)` holds: the current state first, one callback per
    /// change, in order, none after `unschedule()` or `cancel()` returns. The first state is made
    /// on the engine's loop too and runs there; what a state computed elsewhere carries (a probe's
    /// answer, a face set while scheduled) runs on the library's serial delivery queue; one
    /// monitor's callbacks never run concurrently.
    ///
    /// A callback there may read (`currentPath`, `flags()`), set faces, make, schedule, unschedule
    /// or cancel monitors, its own included, also monitors of another namespace: a read that
    /// must wait for another namespace's loop keeps serving this loop's own requests meanwhile, so
    /// two loops never wait on each other. It must not block or take long: while it runs, the
    /// engine of its namespace handles no kernel message, for any monitor. Hand longer work to a
    /// queue of your own. A host-name monitor made there does not wait for its first resolution
    /// (its first state comes by callback).
    /// - Returns: true.
    @discardableResult
    public func scheduleOnEngineThread() -> Bool {
        reschedule { _ in .move(to: .engineThread) }
    }

    /// Stops the callbacks; the same as `setDispatchQueue(nil)`.
    public func unschedule() {
        reschedule { _ in .move(to: nil) }
    }

    /// Changes the schedule as `decide` says for the current one (nil: unscheduled), in one step
    /// under the monitor's lock: `ReachabilityCompat` applies Apple's rules (a second queue is
    /// refused) and schedules on run loops with a hop. `decide` may change the hop it is handed
    /// (where it carries deliveries) but must not call the monitor. A new schedule starts the
    /// engine's deliveries, none stops them; both return as `setDispatchQueue(_:)` does.
    /// - Returns: false when `decide` refused.
    @discardableResult
    package func reschedule(_ decide: (MonitorSchedule?) -> Rescheduling) -> Bool {
        switch core.reschedule(decide) {
        case .refuse:
            return false
        case .keep:
            return true
        case .move(to: .some):
            subscribe()
        case .move(to: nil):
            unsubscribeIfIdle()
        }
        core.connectivityListenersChanged()
        return true
    }

    // MARK: - Get flags

    /// The target's flags now (`SCNetworkReachabilityGetFlags`).
    ///
    /// On a scheduled monitor this reads the engine's latest evaluation; on an unscheduled one it
    /// asks the kernel (one round trip). For a host name that was never resolved it first waits
    /// for the resolution, up to the options' `firstResolutionTimeout`.
    /// - Throws: the `setupError` of a monitor whose namespace could not be opened.
    public func flags() throws(ReachabilityError) -> ReachabilityFlags {
        if let setupError { throw setupError }
        return currentPath.flags
    }

    /// Waits for the first resolution of a host-name target, up to `options.firstResolutionTimeout`.
    private func awaitFirstResolution() {
        if case .host(let name) = core.target, let hostOptions, let engine {
            engine.waitForFirstResolution(of: name, timeout: hostOptions.firstResolutionTimeout)
        }
    }

    // MARK: - NWPathMonitor's face

    /// Called on the monitor's queue with each new path (`NWPathMonitor.pathUpdateHandler`).
    public var pathUpdateHandler: (@Sendable (NetworkPath) -> Void)? {
        get { core.pathHandler }
        set { core.pathHandler = newValue }
    }

    /// Told of each new path on the monitor's queue; held weakly (the monitor stores it in a weak reference).
    /// Set on a scheduled monitor, it is told the current path first, as `pathUpdateHandler` is.
    public var delegate: (any PathMonitorDelegate)? {
        get { (core.delegate as? DelegateFace)?.delegate }
        set { core.delegate = newValue.map(DelegateFace.init) }
    }

    /// Starts delivering paths on `queue` (`NWPathMonitor.start(queue:)`).
    public func start(queue: DispatchQueue) {
        setDispatchQueue(queue)
    }

    /// Stops delivering paths (`NWPathMonitor.cancel()`) and ends every `for await` over this monitor.
    ///
    /// Unlike Apple's, it is a barrier (when it returns, no callback of this monitor runs or
    /// starts, unless called from inside one) and the monitor can be started again.
    public func cancel() {
        core.finishStreams()
        unschedule()
    }

    /// The path now: the engine's latest evaluation when scheduled, else a fresh one.
    ///
    /// For a host name that was never resolved it blocks its thread until the first resolution
    /// finished, up to the options' `firstResolutionTimeout`, as `SCNetworkReachabilityGetFlags`
    /// does; in async code, `fetchCurrentPath()` suspends instead.
    public var currentPath: NetworkPath {
        awaitFirstResolution()
        return pathForRead(evaluated: readNeedsEvaluation ? readNow() : nil)
    }

    /// Whether a read must ask the engine: a scheduled monitor's `current` is kept fresh by the
    /// engine, but a name's first answer may still be on its way in, and an idle monitor's is old.
    var readNeedsEvaluation: Bool {
        if case .host = core.target { return true }
        return !core.isActive
    }

    /// What `currentPath` and `fetchCurrentPath()` return, from the engine's fresh evaluation (nil:
    /// the scheduled monitor's `current` stands): the one place a read composes the probe's answer,
    /// so the blocking and the async read agree on `connectivity` and `portalURL`.
    func pathForRead(evaluated: NetworkPath?) -> NetworkPath {
        guard let evaluated else { return core.current }
        core.storeIfInactive(evaluated)
        return core.composingConnectivity(evaluated)
    }
}

/// Told of each new path of a `PathMonitor`, on the monitor's queue.
public protocol PathMonitorDelegate: AnyObject, Sendable {
    /// The path of `monitor` changed (or, first, is known).
    func pathMonitor(_ monitor: PathMonitor, didUpdate path: NetworkPath)
}
