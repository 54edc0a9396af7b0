import ReachabilityLoop
import ReachabilityModel
import ReachabilityNetlink
import ReachabilitySystem
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// What owns a loop's state and runs on its thread: the engine of a namespace.
package protocol EventLoopOwner: AnyObject {
    /// The typed messages the owner's timers and posts carry.
    associatedtype Message: Sendable

    /// The event socket is readable (or in error: an overrun shows in its drain).
    func eventSocketReadable()
    /// A message posted to the loop, or a timer's, has come.
    func receive(_ message: Message)
    /// A turn ended: publish what other threads read without visiting the loop.
    func endTurn()
}

/// The engine's one event loop: one thread that owns the engine's state and waits in `poll` for
/// the event socket, the engine's other descriptors, its timers and the work posted to it, and
/// runs each right there. Nothing else touches the state: another thread posts work to the loop
/// (`send`, `execute`) or posts and waits for its answer (`submitAndWait`), which runs inline on
/// the loop's own thread.
///
/// A `DispatchSource` costs two wake-ups per burst: dispatch's manager thread sees the socket in
/// epoll, then a worker thread runs the handler; a timer (`asyncAfter`) costs the same two. On a
/// virtual machine a wake-up costs tens of microseconds, more than the engine's own work for a
/// change. Here a burst, or a timer that fires, costs one wake-up, as a hand-rolled netlink loop's
/// does. The deliveries a turn made for monitors scheduled on the engine's thread run right after
/// it, on this thread (`LoopThread.outbox`).
///
/// The engine's other descriptors (the resolver-configuration inotify, the namespace-vanish
/// inotify or pidfd, the boot clocks of the namespace's connectivity probers) are watched in the
/// same `poll` (`watch(_:onReadable:)`): the engine activates no `DispatchSource`, so it never
/// needs libdispatch's epoll descriptor, whose creation traps when descriptors run out.
package final class EventLoop<Owner: EventLoopOwner>: DescriptorWatching, LoopScheduling {
    package typealias Message = Owner.Message
    private let control = LockedState(LoopControl<Message>())
    /// The loop's thread as other code sees it (`LoopThread.current`, its outbox, its wake pipe).
    package let thread: LoopThread

    /// Makes the loop's wake pipe; the thread starts with `start`.
    /// - Throws: when the pipe cannot be made (descriptors exhausted).
    package init() throws(ReachabilityError) {
        if let code = SetupFaults.injected(at: .wakePipe) { throw .system(function: "pipe (engine's loop wake-up)", errno: code) }
        do {
            thread = LoopThread(wake: try WakePipe())
        } catch {
            throw .system(function: "pipe (engine's loop wake-up)", errno: error.errno)
        }
    }

    /// Starts the thread, which from now on owns `owner` and releases it when it ends.
    /// - Throws: when no thread can be made (a pids limit).
    package func start(owner: Owner, eventSocket: Int32) throws(ReachabilityError) {
        let injectedThreadFailure = SetupFaults.injected(at: .waiterThread)
        let run = LoopRun(loop: self, owner: owner, eventSocket: eventSocket)
        // A C function cannot name the generic `LoopRun<Owner>`: the thread gets a plain closure.
        let retained = Unmanaged.passRetained(ThreadStart(run.run)).toOpaque()
        var handle = pthread_t()
        let result = injectedThreadFailure ?? pthread_create(&handle, nil, { raw in
            Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, retained)
        guard result == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(retained).release()
            control.withLock { $0.exited = true }
            throw .system(function: "pthread_create (engine's loop thread)", errno: result)
        }
        pthread_detach(handle)
    }

    /// Whether the calling thread is this loop's.
    package var inLoop: Bool { LoopThread.current === thread }

    // MARK: - Posting

    /// Posts `message` to the owner, to run on the loop's thread soon, after what was posted
    /// before it. One accepted before `stop` runs as the thread ends.
    /// - Returns: false when the thread has ended or is stopping (nothing runs).
    @discardableResult
    package func send(_ message: Message) -> Bool {
        post(.message(message))
    }

    /// Posts `work`, as `send` does.
    @discardableResult
    package func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        post(.run(work))
    }

    private func post(_ work: LoopWork<Message>) -> Bool {
        let posted = control.withLock { control -> Bool in
            if control.exited || control.stopped { return false }
            control.posted.append(work)
            return true
        }
        if posted { thread.poke() }
        return posted
    }

    /// Runs `body` on the loop's thread and returns its answer: inline when called there, else
    /// posted, the caller waiting (a loop's thread serving its own loop meanwhile, so loops never
    /// wait on each other). `body` holds the loop while it runs.
    /// - Returns: nil when the loop has ended (its namespace vanished): `body` did not run.
    package func submitAndWait<Value>(_ body: @escaping () -> Value) -> Value? {
        if inLoop { return body() }
        let answer = LoopAnswer<Value>(waitingLoop: LoopThread.current)
        // The caller waits until `body` ran: what it captures is not shared meanwhile.
        let work = UncheckedWork { answer.store(body()) }
        // Answered once the turn has ended, so the caller reads what the turn published.
        guard post(.answer(compute: { work.body() }, reply: { answer.release() })) else { return nil }
        return answer.wait()
    }

    // MARK: - Timers

    /// Sends `message` to the owner once `deadline` has passed: the loop's one kind of timer.
    /// Dispatch's timers (`asyncAfter`, timer sources) would need its epoll descriptor, and cost
    /// two wake-ups. Never runs after `cancel` or `stop`.
    package func schedule(at deadline: DispatchTime, _ message: Message) -> WatchToken {
        schedule(at: deadline, .message(message))
    }

    /// Runs `work` on the loop once `deadline` has passed, as `schedule(at:_:)` does.
    package func schedule(at deadline: DispatchTime, run work: @escaping @Sendable () -> Void) -> WatchToken {
        schedule(at: deadline, .run(work))
    }

    private func schedule(at deadline: DispatchTime, _ work: LoopWork<Message>) -> WatchToken {
        let token = control.withLock { control -> WatchToken in
            if control.exited { return WatchToken(value: 0) }
            control.nextToken += 1
            control.timers[control.nextToken] = LoopTimer(deadline: deadline.uptimeNanoseconds, work: work)
            return WatchToken(value: control.nextToken)
        }
        thread.poke()
        return token
    }

    /// Runs `work` on the loop once `delay` has passed on the boot clock (`CLOCK_BOOTTIME`, which
    /// counts the time a machine spent suspended, so a resumed machine runs what fell due at
    /// once): a connectivity prober's re-probe. The loop keeps one such clock, a timerfd armed at
    /// the earliest of these deadlines; where none can be made, the loop's own clock serves.
    package func schedule(afterBootTime delay: Duration, run work: @escaping @Sendable () -> Void) -> WatchToken {
        let nanoseconds = UInt64(max(0, delay.components.seconds)) * 1_000_000_000
            + UInt64(max(0, delay.components.attoseconds / 1_000_000_000))
        let token = control.withLock { control -> WatchToken in
            if control.exited { return WatchToken(value: 0) }
            control.nextToken += 1
            if control.bootClock == nil { control.bootClock = BootClockTimer.make() ?? -1 }
            if control.bootClock! >= 0 {
                let deadline = BootClockTimer.now() &+ nanoseconds
                control.bootTimers[control.nextToken] = LoopTimer(deadline: deadline, work: .run(work))
            } else {
                let deadline = DispatchTime.now().uptimeNanoseconds &+ nanoseconds
                control.timers[control.nextToken] = LoopTimer(deadline: deadline, work: .run(work))
            }
            return WatchToken(value: control.nextToken)
        }
        thread.poke()
        return token
    }

    /// Cancels a `schedule`d timer that has not fired. From any thread.
    package func cancel(_ token: WatchToken) {
        control.withLock { control in
            if control.timers.removeValue(forKey: token.value) == nil {
                control.bootTimers.removeValue(forKey: token.value)
            }
        }
    }

    // MARK: - Descriptors

    /// Polls `fileDescriptor` too, and runs `onReadable` on the loop's thread when it is readable.
    ///
    /// The loop owns the descriptor from now on: it closes it after `unwatch`, once its thread
    /// is no longer polling it (or when the thread ends), so a number is never polled after its
    /// close, nor closed twice.
    package func watch(_ fileDescriptor: Int32, onReadable: @escaping @Sendable () -> Void) -> WatchToken {
        let token = control.withLock { control -> WatchToken? in
            if control.exited { return nil }
            control.nextToken += 1
            control.watches[control.nextToken] = DescriptorWatch(fileDescriptor: fileDescriptor, onReadable: onReadable)
            return WatchToken(value: control.nextToken)
        }
        guard let token else {
            Syscalls.close(fileDescriptor)  // the thread is gone: nothing will poll it
            return WatchToken(value: 0)
        }
        thread.poke()
        return token
    }

    /// Stops watching, and closes the descriptor `watch` was given. From any thread, also a handler.
    package func unwatch(_ token: WatchToken) {
        let closeNow = control.withLock { control -> Int32? in
            guard let watch = control.watches.removeValue(forKey: token.value) else { return nil }
            if control.exited { return watch.fileDescriptor }
            control.closing.append(watch.fileDescriptor)
            return nil
        }
        if let closeNow { Syscalls.close(closeNow) } else { thread.poke() }
    }

    /// Runs `body` with the descriptor of `token`'s watch, under the loop's lock, so that the
    /// descriptor cannot be closed meanwhile. Keep `body` to a non-blocking call. From any thread.
    /// - Returns: `body`'s result; nil when the watch is gone (the descriptor is closed or closing).
    package func whileWatched<Result>(_ token: WatchToken, _ body: (Int32) -> Result) -> Result? {
        control.withLock { control in
            guard !control.exited, let watch = control.watches[token.value] else { return nil }
            return body(watch.fileDescriptor)
        }
    }

    /// Ends the thread: it runs no handler after it sees this, runs the work posted before it,
    /// releases the owner and exits. Returns at once; safe from any thread, also from a handler.
    package func stop() {
        control.withLock { $0.stopped = true }
        thread.poke()
    }

    /// The thread's side of the control: what it polls and runs next.
    fileprivate var shared: LockedState<LoopControl<Message>> { control }
}

/// What a new thread runs, handed over once (`passRetained` before `pthread_create`,
/// `takeRetainedValue` in the thread). `@unchecked Sendable`: only the new thread calls it.
private final class ThreadStart: @unchecked Sendable {
    package let body: () -> Void

    package init(_ body: @escaping () -> Void) {
        self.body = body
    }
}

/// A closure run while its caller waits for it, so it may cross to the loop's thread unescaped.
/// `@unchecked Sendable`: the caller blocks until the loop has run it.
private struct UncheckedWork: @unchecked Sendable {
    package let body: () -> Void
}

/// What a loop runs: one of its owner's messages, or a closure (reads from other threads, probers).
enum LoopWork<Message: Sendable>: Sendable {
    case message(Message)
    case run(@Sendable () -> Void)
    /// `compute` in a turn; `reply`, which wakes a waiting caller, once the turn has ended.
    case answer(compute: @Sendable () -> Void, reply: @Sendable () -> Void)
}

/// A descriptor polled beside the event socket, and what runs when it is readable.
struct DescriptorWatch: Sendable {
    let fileDescriptor: Int32
    let onReadable: @Sendable () -> Void
}

/// A timer: its deadline (`DispatchTime` nanoseconds) and what it runs.
struct LoopTimer<Message: Sendable>: Sendable {
    let deadline: UInt64
    let work: LoopWork<Message>
}

/// What the loop's callers tell its thread, and the descriptors it polls.
struct LoopControl<Message: Sendable>: Sendable {
    var stopped = false
    var watches: [Int: DescriptorWatch] = [:] {
        didSet { pollSetVersion &+= 1 }
    }
    var timers: [Int: LoopTimer<Message>] = [:]
    /// Timers on the boot clock (`CLOCK_BOOTTIME` nanoseconds), and that clock's timerfd: nil
    /// until the first such timer, -1 when none could be made.
    var bootTimers: [Int: LoopTimer<Message>] = [:]
    var bootClock: Int32? {
        didSet { pollSetVersion &+= 1 }
    }
    /// Moves whenever the descriptors to poll change (`watches`, `bootClock`): the thread
    /// makes its poll set again only then, not on every wake-up.
    private(set) var pollSetVersion: UInt64 = 0
    /// Posted work, in the order it was posted: run on the next turn of the loop.
    var posted: [LoopWork<Message>] = []
    var nextToken = 0
    /// Unwatched descriptors the thread closes once it is out of `poll`.
    var closing: [Int32] = []
    /// The thread has ended (or never started): descriptors are closed by whoever unwatches them.
    var exited = false
}

/// The thread's side. `@unchecked Sendable`: handed to the thread once; only the thread touches
/// `owner`, and the loop's control is a lock.
final class LoopRun<Owner: EventLoopOwner>: @unchecked Sendable {
    let loop: EventLoop<Owner>
    var owner: Owner?
    let eventSocket: Int32

    init(loop: EventLoop<Owner>, owner: Owner, eventSocket: Int32) {
        self.loop = loop
        self.owner = owner
        self.eventSocket = eventSocket
    }

    var control: LockedState<LoopControl<Owner.Message>> { loop.shared }
    var thread: LoopThread { loop.thread }
}
