/// The deliveries of monitors scheduled on the engine's thread (`PathMonitor.scheduleOnEngineThread()`)
/// that a turn of a library loop made: run by that loop's thread right after the turn, outside
/// the engine's state, so a change costs the one wake-up of the loop and a callback may call back
/// into the library (its reads and schedules run inline on that loop, or wait for another).
///
/// Each loop thread has its own (`LoopThread.outbox`) and nothing else touches it, hence
/// `@unchecked Sendable`. On any other thread there is none (`current` is nil) and such a delivery
/// goes to the library's delivery queue instead.
final class EngineThreadOutbox: @unchecked Sendable {
    private var pending: [MonitorCore.PendingDelivery] = []
    private var draining: [MonitorCore.PendingDelivery] = []
    /// `runAll` is running: a callback waiting for another loop serves its own loop's posted
    /// work (`LoopThread.serve`), whose deliveries join the run in progress.
    private var running = false

    /// The calling thread's outbox: nil unless it is a library loop's thread.
    static var current: EngineThreadOutbox? { LoopThread.current?.outbox }

    func append(_ delivery: MonitorCore.PendingDelivery) {
        pending.append(delivery)
    }

    /// Runs what the turn made, in the order it was made; deliveries a callback makes meanwhile
    /// (it may set a face, or schedule another monitor) run after them, in this same call.
    func runAll() {
        guard !running else { return }
        running = true
        defer { running = false }
        while !pending.isEmpty {
            swap(&pending, &draining)
            for delivery in draining { delivery.run() }
            draining.removeAll(keepingCapacity: true)
        }
    }
}
