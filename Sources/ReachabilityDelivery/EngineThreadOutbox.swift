import Dispatch
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
    // One thread's alone (see above): no runtime exclusivity checks.

    /// Queued by the pass (`MonitorCore.take`), grouped by callback queue as they come (in the
    /// order each queue was first met), sent by `sendQueued`: each group is handed to its queue
    /// as it is, so ten thousand monitors of one queue cost one `async` and no copy of their
    /// deliveries.
    @exclusivity(unchecked) private var groups: [QueueGroup] = []
    /// Deliveries that run on this thread after the turn (optional, so that each is moved out of
    /// its slot as it runs, not copied).
    @exclusivity(unchecked) private var pending: [MonitorCore.DeliveryWork?] = []
    @exclusivity(unchecked) private var draining: [MonitorCore.DeliveryWork?] = []
    /// `turnEnded` is running: a callback waiting for another loop serves its own loop's posted
    /// work (`LoopThread.serve`), whose deliveries join the run in progress.
    @exclusivity(unchecked) private var running = false

    /// One callback queue's deliveries of a batch, in the order they were made (optional, so that
    /// each can be moved out as it runs: `DeliveryBatch`).
    private struct QueueGroup {
        let queue: DispatchQueue
        var deliveries: [MonitorCore.DeliveryWork?]
    }

    /// One for a loop's thread (`current` makes it on first use), or a test's.
    package init() {}

    /// The calling thread's outbox: nil unless it is a library loop's thread.
    package static var current: EngineThreadOutbox? {
        guard let thread = LoopThread.current else { return nil }
        if let outbox = thread.outbox { return unsafeDowncast(outbox, to: EngineThreadOutbox.self) }
        let made = EngineThreadOutbox()
        thread.outbox = made
        return made
    }

    /// Queues a delivery of the pass, sent with its batch; one of a monitor scheduled on this
    /// thread runs here after the turn.
    package func queue(_ work: consuming MonitorCore.DeliveryWork, on queue: DispatchQueue) {
        if work.delivery.onEngineThread { return pending.append(consume work) }
        // A batch's monitors mostly share one queue, or a few: the last group is the likely one.
        var index = groups.count - 1
        while index >= 0, groups[index].queue !== queue { index -= 1 }
        if index < 0 {
            groups.append(QueueGroup(queue: queue, deliveries: []))
            index = groups.count - 1
        }
        groups[index].deliveries.append(consume work)
    }

    /// Adds a delivery that runs on this thread after the turn.
    package func append(_ delivery: consuming MonitorCore.DeliveryWork) {
        pending.append(consume delivery)
    }

    package func sendQueued() {
        guard !groups.isEmpty else { return }
        for index in groups.indices {
            // Moved out of the group, so the batch below holds the only reference to them.
            var deliveries: [MonitorCore.DeliveryWork?] = []
            swap(&deliveries, &groups[index].deliveries)
            if deliveries.count == 1, let delivery = deliveries[0].take() {
                groups[index].queue.async { delivery.run() }
            } else {
                let batch = DeliveryBatch(deliveries)
                groups[index].queue.async { batch.run() }
            }
        }
        groups.removeAll(keepingCapacity: true)
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
            for index in draining.indices { draining[index].take()?.run() }
            draining.removeAll(keepingCapacity: true)
        } while !groups.isEmpty || !pending.isEmpty
    }
}

/// A batch of one callback queue's deliveries, run there in order, each moved out of its slot as
/// it runs: a loop over the array would copy each (its monitor, path and hop counted up and down
/// once more, ten thousand times for ten thousand monitors of one change; so would reversing it to
/// pop them). A lone delivery needs no batch.
///
/// Made on the loop's thread and then touched only by the one work item that runs it, hence
/// `@unchecked Sendable`.
private final class DeliveryBatch: @unchecked Sendable {
    private var deliveries: [MonitorCore.DeliveryWork?]

    init(_ deliveries: [MonitorCore.DeliveryWork?]) {
        self.deliveries = deliveries
    }

    func run() {
        for index in deliveries.indices { deliveries[index].take()?.run() }
    }
}
