import ReachabilityLoop
/// What a turn of a library loop leaves on its thread (`LoopThread.outbox`): the deliveries the
/// engine's pass made, queued until the engine sends its batch (one work item per callback
/// queue), and the deliveries of monitors scheduled on the engine's thread
/// (`PathMonitor.scheduleOnEngineThread()`), run by the loop's thread right after the turn,
/// outside the engine's state, so a change costs the one wake-up of the loop and a callback may
/// call back into the library (its reads and schedules run inline on that loop, or wait for another).
///
/// Each loop thread has its own, made on first use, and nothing else touches it, hence
/// `@unchecked Sendable`. On any other thread there is none (`current` is nil) and such a delivery
/// goes to the library's delivery queue instead.
package final class EngineThreadOutbox: TurnOutbox, @unchecked Sendable {
    /// Queued by the pass (`MonitorCore.take`), sent by `sendQueued`.
    private var queued: [MonitorCore.PendingDelivery] = []
    private var sending: [MonitorCore.PendingDelivery] = []
    /// Deliveries that run on this thread after the turn.
    private var pending: [MonitorCore.PendingDelivery] = []
    private var draining: [MonitorCore.PendingDelivery] = []
    /// `turnEnded` is running: a callback waiting for another loop serves its own loop's posted
    /// work (`LoopThread.serve`), whose deliveries join the run in progress.
    private var running = false

    /// The calling thread's outbox: nil unless it is a library loop's thread.
    package static var current: EngineThreadOutbox? {
        guard let thread = LoopThread.current else { return nil }
        if let outbox = thread.outbox { return unsafeDowncast(outbox, to: EngineThreadOutbox.self) }
        let made = EngineThreadOutbox()
        thread.outbox = made
        return made
    }

    /// Queues a delivery of the pass, sent with its batch.
    package func queue(_ delivery: MonitorCore.PendingDelivery) {
        queued.append(delivery)
    }

    /// Adds a delivery that runs on this thread after the turn.
    package func append(_ delivery: MonitorCore.PendingDelivery) {
        pending.append(delivery)
    }

    package func sendQueued() {
        guard !queued.isEmpty else { return }
        swap(&queued, &sending)
        MonitorCore.deliver(sending)
        sending.removeAll(keepingCapacity: true)
    }

    /// Sends what is queued and runs what the turn made for this thread, in the order it was
    /// made; deliveries a callback makes meanwhile (it may set a face, read, or schedule another
    /// monitor) go out and run after them, in this same call.
    package func turnEnded() {
        guard !running else { return sendQueued() }
        running = true
        defer { running = false }
        repeat {
            sendQueued()
            swap(&pending, &draining)
            for delivery in draining { delivery.run() }
            draining.removeAll(keepingCapacity: true)
        } while !queued.isEmpty || !pending.isEmpty
    }
}
