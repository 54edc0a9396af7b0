#if canImport(Glibc)
import Glibc
#endif

/// The package's one lock: a `Sendable` value behind a pthread mutex, with `Mutex`'s `withLock`.
///
/// Swift 6.3's `Synchronization.Mutex` waits on a futex inside an uninstrumented library on Linux,
/// so TSan misses the order it imposes and reports false races; a pthread mutex is one TSan
/// sees, so `scripts/sanitize` checks every lock of the package for real. `Value: Sendable` keeps
/// what the lock guards from being shared outside it by other means.
///
/// Two places need more than a lock, and have a type of their own that says why: the monitor's
/// callout lock is held around user code and taken again from it (`RecursiveLock`), and threads
/// that sleep until a value changes wait on a condition (`WaitableState`).
///
/// `@unchecked Sendable`: the buffer's value is touched only with its mutex held (and
/// `ManagedBuffer`, which the buffer is, cannot be marked `Sendable` itself).
///
/// The value and the mutex live in one allocation (a `ManagedBuffer`, as swift-nio keeps its
/// locks): a monitor holds several locks, and a mutex allocated on its own was a second block
/// each (10,000 monitors' memory, BENCHMARKS.md). A copy of a `LockedState` is the same lock.
package struct LockedState<Value: Sendable>: @unchecked Sendable {
    private let buffer: MutexBuffer<Value>

    package init(_ value: Value) {
        buffer = MutexBuffer.make(value, recursive: false)
    }

    /// Runs `body` with the value, the lock held. No user code and no libnl call belong in `body`.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try buffer.withLock(body)
    }
}

/// A value and the pthread mutex that guards it, in one heap block; the mutex lies in the
/// buffer's tail storage, which never moves while the buffer lives.
package final class MutexBuffer<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    package static func make(_ value: Value, recursive: Bool) -> MutexBuffer {
        // `create` makes an instance of the class it is called on: this one.
        let buffer = unsafeDowncast(create(minimumCapacity: 1) { _ in value }, to: MutexBuffer.self)
        buffer.withUnsafeMutablePointerToElements { mutex in
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
            pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        }
        return buffer
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }

    /// Runs `body` with the value, the mutex held. The value is reached only once it is held:
    /// reaching the header is itself an access to it, which ThreadSanitizer (rightly) counts.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try whileLocked { try withUnsafeMutablePointerToHeader { try body(&$0.pointee) } }
    }

    /// Runs `body` with the mutex held, without touching the value (a lock that guards none).
    package func whileLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_lock($0) }
        defer { withUnsafeMutablePointerToElements { _ = pthread_mutex_unlock($0) } }
        return try body()
    }
}
