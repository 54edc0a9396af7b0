import Synchronization

/// Collects values handed to `@Sendable` callbacks on other queues.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    var values: [Value] { storage.withLock { $0 } }

    /// Lets go of what was recorded (values that hold their recorder would otherwise never go).
    func removeAll() {
        storage.withLock { $0.removeAll() }
    }
}
