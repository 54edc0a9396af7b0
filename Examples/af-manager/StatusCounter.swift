import Dispatch
import Synchronization

/// Counts the statuses delivered and signals `done` at the wanted count.
final class StatusCounter: Sendable {
    private let delivered = Mutex(0)
    private let wanted: Int?
    private let done: DispatchSemaphore

    init(wanted: Int?, done: DispatchSemaphore) {
        self.wanted = wanted
        self.done = done
    }

    func count() {
        let count = delivered.withLock { count in
            count += 1
            return count
        }
        if let wanted, count == wanted { done.signal() }
    }
}
