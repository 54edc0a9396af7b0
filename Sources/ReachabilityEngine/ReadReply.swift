import ReachabilityLoop
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// Where the engine's loop puts the answer of a read another thread posted as a message
/// (`EngineMessage.read`), and how that thread waits for it. One a thread, kept and reused: a
/// read from another thread allocates no closure, no condition and no answer box.
///
/// `@unchecked Sendable`: `answer` is written by the loop before `done` is set under the
/// condition's lock, and read by the waiting thread only after it saw `done`; a thread uses its
/// own slot for one read at a time (`take` hands out a fresh one to a read made while its own
/// is in use, as a loop's thread serving its posts while it waits could).
package final class ReadReply: @unchecked Sendable {
    private var answer: (path: NetworkPath, isResolved: Bool)?
    private let done = WaitableState(false)
    private var inUse = false
    /// The loop the waiting thread runs, if any: it serves its own posts while it waits.
    private let waitingLoop: LoopThread?

    private init(waitingLoop: LoopThread?) {
        self.waitingLoop = waitingLoop
    }

    /// nil when the process has no thread-specific key left: every read then takes a fresh slot.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, { raw in
            Unmanaged<ReadReply>.fromOpaque(raw!).release()
        }) == 0 ? key : nil
    }()

    /// The calling thread's slot, ready for one read; a fresh one when its own is in use.
    package static func take() -> ReadReply {
        guard let key else { return ReadReply(waitingLoop: LoopThread.current) }
        if let raw = pthread_getspecific(key) {
            let kept = Unmanaged<ReadReply>.fromOpaque(raw).takeUnretainedValue()
            if !kept.inUse {
                kept.inUse = true
                return kept
            }
            return ReadReply(waitingLoop: LoopThread.current)
        }
        let made = ReadReply(waitingLoop: LoopThread.current)
        if pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque()) != 0 {
            Unmanaged.passUnretained(made).release()
        }
        made.inUse = true
        return made
    }

    /// The loop's answer; wakes the waiting thread.
    package func give(_ path: NetworkPath, isResolved: Bool) {
        answer = (path, isResolved)
        done.withLock { $0 = true }
        done.broadcast()
        waitingLoop?.poke()
    }

    /// Waits for the answer, then readies the slot for the thread's next read.
    package func wait() -> (path: NetworkPath, isResolved: Bool) {
        if let waitingLoop {
            waitingLoop.serve(until: { done.withLock { $0 } })
        } else {
            done.wait(until: { $0 }) { _ in }
        }
        let taken = answer!
        answer = nil
        done.withLock { $0 = false }
        inUse = false
        return taken
    }

    /// The read was not posted (the loop has ended): the slot is free again.
    package func abandon() {
        inUse = false
    }
}
