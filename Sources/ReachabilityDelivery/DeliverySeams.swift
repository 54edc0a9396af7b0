import ReachabilitySystem

/// The delivery's seam for tests, the one file of this target that holds `#if DEBUG`.
extension MonitorCore {
    #if DEBUG
    /// Test hook (debug builds only): runs when a face set on a monitor is about to get the
    /// current state, before that state is read, so a test can change the network in that moment.
    package static let beforeRedelivery = LockedState<(@Sendable () -> Void)?>(nil)
    #endif

    /// Runs the test's hook, if one is set; nothing in a release build.
    @inline(__always)
    static func runBeforeRedelivery() {
        #if DEBUG
        beforeRedelivery.withLock { $0 }?()
        #endif
    }
}
