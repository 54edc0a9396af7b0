import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The deliveries of monitors scheduled on the engine's thread (`PathMonitor.scheduleOnEngineThread()`)
/// that a turn of a library loop made: run by that loop's thread right after the turn, outside
/// the engine's queue, so a change costs the one wake-up of the loop and a callback may call back
/// into the library (its reads and schedules take the queue, which is free by then).
///
/// Thread-local: each loop thread installs its own (`install`) and nothing else touches it, hence
/// `@unchecked Sendable`. On any other thread there is none (`current` is nil) and such a delivery
/// goes to the library's delivery queue instead.
final class EngineThreadOutbox: @unchecked Sendable {
    private var pending: [MonitorCore.PendingDelivery] = []
    private var draining: [MonitorCore.PendingDelivery] = []

    /// nil when the process has no thread-specific key left (1,024 of them): then no thread has
    /// an outbox, and every delivery takes the library's delivery queue.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        // No destructor: the loop uninstalls its outbox before its thread ends.
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// The calling thread's outbox: nil unless it is a library loop's thread.
    static var current: EngineThreadOutbox? {
        guard let key, let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<EngineThreadOutbox>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Makes this the calling thread's outbox until `uninstall`.
    func install() {
        guard let key = Self.key else { return }
        let raw = Unmanaged.passRetained(self).toOpaque()
        if pthread_setspecific(key, raw) != 0 { Unmanaged<EngineThreadOutbox>.fromOpaque(raw).release() }
    }

    func uninstall() {
        guard let key = Self.key, let raw = pthread_getspecific(key) else { return }
        pthread_setspecific(key, nil)
        Unmanaged<EngineThreadOutbox>.fromOpaque(raw).release()
    }

    func append(_ delivery: MonitorCore.PendingDelivery) {
        pending.append(delivery)
    }

    /// Runs what the turn made, in the order it was made; deliveries a callback makes meanwhile
    /// (it may set a face, or schedule another monitor) run after them, in this same call.
    func runAll() {
        while !pending.isEmpty {
            swap(&pending, &draining)
            for delivery in draining { delivery.run() }
            draining.removeAll(keepingCapacity: true)
        }
    }
}
