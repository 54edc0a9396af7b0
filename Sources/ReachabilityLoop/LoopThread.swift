import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// A library loop's thread as other code sees it: which loop the calling thread runs (`current`),
/// what its turns leave to send and to run on it (`outbox`), and the one way a loop thread waits
/// for another loop without stopping its own (`serve(until:)`).
///
/// Loops never wait on each other: a callback on loop A may read a monitor of namespace B, whose
/// answer is B's loop's to give, while B's callback reads a monitor of A. A plain wait there
/// would deadlock the two threads. A loop thread that waits keeps serving the work posted to its
/// own loop meanwhile, so B's question to A is answered while A waits for B's answer.
///
/// `@unchecked Sendable`: `outbox` and `servePosted` are touched only by the loop's own thread
/// (set before the thread runs anything else); the wake pipe is behind a lock.
package final class LoopThread: @unchecked Sendable {
    /// The name of every loop's thread (at most 15 bytes, the kernel's limit).
    package static let name = "reachability"

    /// The loop's wake pipe, until its thread ends: then it closes, and a poke finds nothing to
    /// write to (a descriptor number written after its close could be another file's).
    private let wake: LockedState<WakePipe?>
    /// The pipe's read end, which only the loop's thread reads, polls and closes.
    package let wakeReader: Int32
    /// What the turns' work leaves on this thread: installed by the layer that makes it (the
    /// monitors' deliveries) on first use, ended with each turn.
    package var outbox: (any TurnOutbox)?
    /// Runs the work posted to this thread's loop (set by the loop when its thread starts).
    package var servePosted: () -> Void = {}

    /// This loop's number among the process's loops, for `runningLoops`.
    private let serial: Int
    /// The loops made so far and those whose thread runs now (`install` to `uninstall`).
    private static let registry = LockedState((made: 0, running: Set<Int>()))

    /// The loops whose thread runs now, by number: how a test tells the library's loop threads.
    /// A thread's name would not do: a thread that a loop's thread starts (one that enters a
    /// namespace to open a socket there, `NamespaceEntry`) inherits the loop's name while it runs.
    package static var runningLoops: Set<Int> { registry.withLock { $0.running } }

    package init(wake: WakePipe) {
        self.wake = LockedState(wake)
        self.wakeReader = wake.reader
        serial = Self.registry.withLock { registry in
            registry.made += 1
            return registry.made
        }
    }

    /// Wakes the loop's thread from `poll`. From any thread; nothing once the thread has ended.
    package func poke() {
        wake.withLock { $0?.poke() }
    }

    /// Empties the pipe; on the loop's thread.
    package func drainWake() {
        wake.withLock { $0?.drain() }
    }

    /// Closes the pipe as the loop's thread ends, so that a stopped loop holds no descriptor
    /// while monitors still hold it.
    package func closeWake() {
        wake.withLock { $0 = nil }
    }

    /// Sends what the calling loop thread's outbox holds so far: the engine does after each batch
    /// of monitors, so the first hear of a change before the last are evaluated.
    package static func sendQueued() {
        current?.outbox?.sendQueued()
    }

    /// nil when the process has no thread-specific key left (1,024 of them): then no thread is
    /// known as a loop's, every delivery takes the library's delivery queue, and a loop thread's
    /// wait for another loop is a plain one.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        // No destructor: the loop uninstalls itself before its thread ends.
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// The loop the calling thread runs; nil on any other thread.
    package static var current: LoopThread? {
        guard let key, let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<LoopThread>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Makes this the calling thread's loop until `uninstall`.
    package func install() {
        _ = Self.registry.withLock { $0.running.insert(serial) }
        guard let key = Self.key else { return }
        let raw = Unmanaged.passRetained(self).toOpaque()
        if pthread_setspecific(key, raw) != 0 { Unmanaged<LoopThread>.fromOpaque(raw).release() }
    }

    package func uninstall() {
        _ = Self.registry.withLock { $0.running.remove(serial) }
        guard let key = Self.key, let raw = pthread_getspecific(key) else { return }
        pthread_setspecific(key, nil)
        Unmanaged<LoopThread>.fromOpaque(raw).release()
    }

    /// On this loop's thread: waits until `isDone`, running the work posted to this loop
    /// meanwhile. Whoever makes `isDone` true pokes `wake` afterwards. The loop's socket and
    /// timers wait for the outer turn; deliveries the posted work makes run with the outer turn's.
    package func serve(until isDone: () -> Bool) {
        while !isDone() {
            var descriptor = pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, -1)
            drainWake()
            servePosted()
        }
    }
}

/// What a turn's work leaves for its loop's thread, kept by the layer that makes it.
package protocol TurnOutbox: AnyObject {
    /// Sends what is queued so far.
    func sendQueued()
    /// The turn ended: sends what is queued, then runs what must run on this thread.
    func turnEnded()
}

/// The answer of work posted to a loop, and the wake-up of whoever waits for it: a loop's
/// thread (`LoopThread.serve`) or any other thread (a condition).
package final class LoopAnswer<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `value` is written once, by the loop, before `done` is set under
    // the condition's lock, and read by the waiter only after it saw `done`.
    private var value: Value?
    private let done = WaitableState(false)
    private let waitingLoop: LoopThread?

    package init(waitingLoop: LoopThread?) {
        self.waitingLoop = waitingLoop
    }

    /// Keeps the answer (on the loop); `release` wakes the waiter.
    package func store(_ answer: Value) {
        value = answer
    }

    package func release() {
        done.withLock { $0 = true }
        done.broadcast()
        waitingLoop?.poke()
    }

    /// - Returns: the answer; nil when the loop ended before it could compute one.
    package func wait() -> Value? {
        if let waitingLoop {
            waitingLoop.serve(until: { done.withLock { $0 } })
        } else {
            done.wait(until: { $0 }) { _ in }
        }
        return value
    }
}

/// A loop's state, reachable only from that loop's thread: the rule `NIOLoopBound` states for
/// swift-nio's event loops, checked on every access in debug builds. Other threads hold this
/// and hand it to work they post to the loop (`EventLoop.submitAndWait`).
///
/// `@unchecked Sendable`: the value is reached only on the loop's thread (checked in debug).
package struct LoopBound<Value: AnyObject>: @unchecked Sendable {
    private let storage: Value
    private let thread: LoopThread

    package init(_ value: Value, on thread: LoopThread) {
        self.storage = value
        self.thread = thread
    }

    /// The value; traps in debug builds when reached off its loop's thread.
    package var value: Value {
        assert(LoopThread.current === thread, "loop-bound state reached off its loop's thread")
        return storage
    }
}
