import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The engine's one event loop: waits for the engine's event socket, its other descriptors, its
/// timers and its posted work on a thread of its own, and runs each with `queue.sync`.
///
/// A `DispatchSource` costs two wake-ups per burst: dispatch's manager thread sees the socket in
/// epoll, then a worker thread runs the handler; a timer (`asyncAfter`) costs the same two. On a
/// virtual machine a wake-up costs tens of microseconds, more than the engine's own work for a
/// change. `queue.sync` from this thread onto the idle serial queue runs the handler right here,
/// so a burst, or a timer that fires, costs one wake-up, as a hand-rolled netlink loop's does; the
/// handlers still run under the queue's exclusion, as every other piece of the engine's state
/// does. One thread per namespace monitored, asleep in `poll` otherwise. The deliveries a handler
/// made for monitors scheduled on the engine's thread run right after it, on this thread and
/// outside the queue (`EngineThreadOutbox`).
///
/// The engine's other descriptors (the resolver-configuration inotify, the namespace-vanish
/// inotify or pidfd, the boot clocks of the namespace's connectivity probers) are watched in the
/// same `poll` (`watch(_:onReadable:)`): the engine activates no `DispatchSource`, so it never
/// needs libdispatch's epoll descriptor, whose creation traps when descriptors run out, and a
/// watch costs no dispatch memory.
final class EventWaiter: DescriptorWatching {
    /// The name of every loop's thread (at most 15 bytes, the kernel's limit).
    static let threadName = "reachability"
    private let control = LockedState(WaiterControl())
    private let channel: WakePipe

    /// Starts the thread. `keepAlive` (the sockets) is released by the thread when it ends, on
    /// `queue`, so the descriptor stays open while it may still be polled.
    ///
    /// - Parameters:
    ///   - readable: runs on `queue` when `fileDescriptor` is readable (or has an error pending).
    /// - Throws: when no pipe or thread can be made (descriptors or threads exhausted).
    init(fileDescriptor: Int32, queue: DispatchQueue, keepAlive: AnyObject,
         readable: @escaping @Sendable () -> Void) throws(ReachabilityError) {
        #if DEBUG
        if let code = SetupFaults.injected(at: .wakePipe) { throw .system(function: "pipe (engine's waiter wake-up)", errno: code) }
        let injectedThreadFailure = SetupFaults.injected(at: .waiterThread)
        #else
        let injectedThreadFailure: Int32? = nil
        #endif
        do {
            channel = try WakePipe()
        } catch {
            throw .system(function: "pipe (engine's waiter wake-up)", errno: error.errno)
        }
        let loop = WaitLoop(fileDescriptor: fileDescriptor, channel: channel, queue: queue, control: control,
                            keepAlive: KeptAlive(object: keepAlive), readable: readable)
        let retained = Unmanaged.passRetained(loop).toOpaque()
        var thread = pthread_t()
        let result = injectedThreadFailure ?? pthread_create(&thread, nil, { raw in
            Unmanaged<WaitLoop>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, retained)
        guard result == 0 else {
            Unmanaged<WaitLoop>.fromOpaque(retained).release()
            throw .system(function: "pthread_create (engine's waiter thread)", errno: result)
        }
        pthread_detach(thread)
    }

    /// Polls `fileDescriptor` too, and runs `onReadable` on the queue when it is readable.
    ///
    /// The waiter owns the descriptor from now on: it closes it after `unwatch`, once its thread
    /// is no longer polling it (or when the thread ends), so a number is never polled after its
    /// close, nor closed twice.
    func watch(_ fileDescriptor: Int32, onReadable: @escaping @Sendable () -> Void) -> WatchToken {
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
        channel.poke()
        return token
    }

    /// Runs `action` on the queue once `deadline` has passed: the loop's one kind of timer (the
    /// second look after a deletion, the resync after an overrun, host names' re-resolution, a
    /// prober's re-probe where no boot clock could be made).
    /// Dispatch's timers (`asyncAfter`, timer sources) would need its epoll descriptor, and cost
    /// two wake-ups. Never runs after `cancel` or `stop`.
    func schedule(at deadline: DispatchTime, _ action: @escaping @Sendable () -> Void) -> WatchToken {
        let token = control.withLock { control -> WatchToken in
            if control.exited { return WatchToken(value: 0) }
            control.nextToken += 1
            control.timers[control.nextToken] = (deadline.uptimeNanoseconds, action)
            return WatchToken(value: control.nextToken)
        }
        channel.poke()
        return token
    }

    /// Runs `action` on the queue from the waiter's thread, soon. The engine's deferred work comes
    /// this way, not with `queue.async`, which needs a dispatch worker thread: under a pids limit
    /// libdispatch waits for one forever. Posts run in the order they were made, but after work
    /// that took the queue directly in the meantime (`queue.sync`); one accepted before `stop`
    /// runs as the thread ends. - Returns: false when the thread has ended or is stopping
    /// (nothing runs: the caller runs `action` another way).
    @discardableResult
    func post(_ action: @escaping @Sendable () -> Void) -> Bool {
        let posted = control.withLock { control -> Bool in
            if control.exited || control.stopped { return false }
            control.posted.append(action)
            return true
        }
        if posted { channel.poke() }
        return posted
    }

    /// Cancels a `schedule`d action that has not started. From any thread.
    func cancel(_ token: WatchToken) {
        control.withLock { _ = $0.timers.removeValue(forKey: token.value) }
    }

    /// Stops watching, and closes the descriptor `watch` was given. From any thread, also a handler.
    func unwatch(_ token: WatchToken) {
        let closeNow = control.withLock { control -> Int32? in
            guard let watch = control.watches.removeValue(forKey: token.value) else { return nil }
            if control.exited { return watch.fileDescriptor }
            control.closing.append(watch.fileDescriptor)
            return nil
        }
        if let closeNow { Syscalls.close(closeNow) } else { channel.poke() }
    }

    /// Runs `body` with the descriptor of `token`'s watch, under the waiter's lock, so that the
    /// descriptor cannot be closed meanwhile (a descriptor leaves `watches` under the lock before
    /// anyone closes it). A prober arms its timer this way: the waiter owns that descriptor, and
    /// closes it when its thread ends (the namespace vanished), after which the number may name
    /// another file. Keep `body` to a non-blocking call. From any thread.
    /// - Returns: `body`'s result; nil when the watch is gone (the descriptor is closed or closing).
    func whileWatched<Result>(_ token: WatchToken, _ body: (Int32) -> Result) -> Result? {
        control.withLock { control in
            guard !control.exited, let watch = control.watches[token.value] else { return nil }
            return body(watch.fileDescriptor)
        }
    }

    /// Ends the thread: it runs no handler after it sees this, releases `keepAlive` and exits.
    /// Returns at once; safe from any thread, also from a handler.
    func stop() {
        control.withLock { $0.stopped = true }
        channel.poke()
    }

    deinit {
        stop()
    }
}

/// A descriptor polled beside the event socket, and what runs when it is readable.
private struct DescriptorWatch {
    let fileDescriptor: Int32
    let onReadable: @Sendable () -> Void
}

/// What the waiter's callers tell its thread, and the descriptors it polls.
private struct WaiterControl {
    var stopped = false
    var watches: [Int: DescriptorWatch] = [:]
    /// `schedule`d actions and their deadlines (`DispatchTime` nanoseconds).
    var timers: [Int: (deadline: UInt64, action: @Sendable () -> Void)] = [:]
    /// `post`ed work, in the order it was posted: run on the next turn of the loop.
    var posted: [@Sendable () -> Void] = []
    var nextToken = 0
    /// Unwatched descriptors the thread closes once it is out of `poll`.
    var closing: [Int32] = []
    /// The thread has ended: descriptors are closed by whoever unwatches them.
    var exited = false
}

/// The thread's side. `@unchecked Sendable`: handed to the thread once; only the thread touches
/// `keepAlive`, and `control` is a lock.
private final class WaitLoop: @unchecked Sendable {
    let fileDescriptor: Int32
    let channel: WakePipe
    let queue: DispatchQueue
    let control: LockedState<WaiterControl>
    var keepAlive: KeptAlive?
    let readable: @Sendable () -> Void

    init(fileDescriptor: Int32, channel: WakePipe, queue: DispatchQueue, control: LockedState<WaiterControl>,
         keepAlive: KeptAlive, readable: @escaping @Sendable () -> Void) {
        self.fileDescriptor = fileDescriptor
        self.channel = channel
        self.queue = queue
        self.control = control
        self.keepAlive = keepAlive
        self.readable = readable
    }
}

extension WaitLoop {
    func run() {
        // Kept across iterations and refilled in place: a wake-up (every kernel event) allocates
        // nothing here (BENCHMARKS.md: 7 of a route change's 56 mallocs were this loop's).
        var descriptors: [pollfd] = []
        // The watch itself, not its closure: a closure in a tuple element is stored reabstracted,
        // which costs an allocation each time it goes in and each time it comes out.
        var handlers: [(token: Int, watch: DescriptorWatch)] = []
        Self.nameThisThread()
        let outbox = EngineThreadOutbox()
        outbox.install()
        defer { outbox.uninstall() }
        while true {
            let (stopped, deadline, closing) = control.withLock { control in
                defer { if !control.closing.isEmpty { control.closing.removeAll() } }
                handlers.removeAll(keepingCapacity: true)
                for (token, watch) in control.watches { handlers.append((token, watch)) }
                handlers.sort { $0.token < $1.token }
                descriptors.removeAll(keepingCapacity: true)
                descriptors.append(pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0))
                descriptors.append(pollfd(fd: channel.reader, events: Int16(POLLIN), revents: 0))
                for handler in handlers {
                    descriptors.append(pollfd(fd: handler.watch.fileDescriptor, events: Int16(POLLIN), revents: 0))
                }
                var earliest: UInt64? = control.posted.isEmpty ? nil : 0
                for timer in control.timers.values where timer.deadline < earliest ?? .max { earliest = timer.deadline }
                return (control.stopped, earliest, control.closing)
            }
            closing.forEach(Syscalls.close)
            if stopped { break }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Self.timeout(until: deadline))
            if ready < 0 {
                if errno == EINTR { continue }
                break  // cannot wait any more; the engine's synchronous paths still drain
            }
            if descriptors[1].revents != 0 { channel.drain() }
            // POLLERR too: an overrun (ENOBUFS) is reported through the handler's drain.
            if descriptors[0].revents & Int16(POLLIN | POLLERR) != 0 {
                if control.withLock({ $0.stopped }) { break }
                turn(readable, outbox)
            } else if descriptors[0].revents & Int16(POLLNVAL | POLLHUP) != 0 {
                break
            }
            for (position, handler) in handlers.enumerated() where descriptors[position + 2].revents != 0 {
                // A descriptor that is not open would wake every poll: stop watching it.
                if descriptors[position + 2].revents & Int16(POLLNVAL) != 0 {
                    control.withLock { _ = $0.watches.removeValue(forKey: handler.token) }
                    continue
                }
                // Unwatched meanwhile (its descriptor is waiting to be closed), or stopping: skip.
                guard control.withLock({ !$0.stopped && $0.watches[handler.token] != nil }) else { continue }
                turn(handler.watch.onReadable, outbox)
            }
            for action in dueTimers() { turn(action, outbox) }
            for action in takePosted() { turn(action, outbox) }
        }
        let (remaining, posted) = control.withLock { control in
            control.exited = true
            // Emptied here, so a later `unwatch` finds nothing and closes nothing twice.
            defer {
                control.closing.removeAll()
                control.watches.removeAll()
                control.timers.removeAll()
            }
            // Posts were accepted with a promise to run: one may hold a caller's continuation
            // (`fetchCurrentPath`), which would never resume. Timers are dropped.
            let posted = control.posted
            control.posted.removeAll()
            return (control.closing + control.watches.values.map(\.fileDescriptor), posted)
        }
        remaining.forEach(Syscalls.close)
        for action in posted { turn(action, outbox) }
        // The sockets die on the engine's queue, after any handler still running there.
        let sockets = keepAlive
        keepAlive = nil
        queue.async { withExtendedLifetime(sockets) {} }
    }

    /// Names the calling thread, so `top -H`, a debugger and the tests tell the library's loops
    /// from other threads. Through `/proc/thread-self/comm`: Glibc's module does not export
    /// `pthread_setname_np`, and `prctl` is variadic. A failure (no /proc, no descriptor) only
    /// leaves the name as it was.
    private static func nameThisThread() {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = EventWaiter.threadName.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
        Syscalls.close(descriptor)
    }

    /// Runs `action` on the queue, then, outside it, the deliveries it made for monitors scheduled
    /// on this thread: one wake-up from the kernel's message to the user's callback.
    private func turn(_ action: @Sendable () -> Void, _ outbox: EngineThreadOutbox) {
        queue.sync(execute: action)
        outbox.runAll()
    }

    /// Removes and returns the scheduled actions whose deadline has passed, earliest first, and
    /// those of one deadline in the order they were made: tokens only grow.
    private func dueTimers() -> [@Sendable () -> Void] {
        control.withLock { control in
            guard !control.stopped, !control.timers.isEmpty else { return [] }
            let now = DispatchTime.now().uptimeNanoseconds
            let due = control.timers.filter { $0.value.deadline <= now }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (token, _) in due { control.timers[token] = nil }
            return due.map(\.value.action)
        }
    }

    /// Removes and returns the posted work, in the order it was posted (none once stopping: the
    /// thread's end runs it).
    private func takePosted() -> [@Sendable () -> Void] {
        control.withLock { control in
            guard !control.stopped, !control.posted.isEmpty else { return [] }
            defer { control.posted.removeAll(keepingCapacity: true) }
            return control.posted
        }
    }

    /// `poll`'s timeout in milliseconds, rounded up so that the deadline has passed on waking; -1 without one.
    private static func timeout(until deadline: UInt64?) -> Int32 {
        guard let deadline else { return -1 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard deadline > now else { return 0 }
        return Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
    }
}

/// The sockets on their way to their end on the engine's queue. `@unchecked Sendable`: nothing
/// touches `object` but its release, which happens on that queue.
private final class KeptAlive: @unchecked Sendable {
    let object: AnyObject

    init(object: AnyObject) { self.object = object }
}
