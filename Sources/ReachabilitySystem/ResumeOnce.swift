/// A continuation that several parties may resume (a finished resolution, a timeout): the first
/// resumes it, the others do nothing.
package final class ResumeOnce: Sendable {
    private let continuation: LockedState<CheckedContinuation<Void, Never>?>

    package init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = LockedState(continuation)
    }

    package func resume() {
        let pending = continuation.withLock { pending in
            defer { pending = nil }
            return pending
        }
        pending?.resume()
    }
}
