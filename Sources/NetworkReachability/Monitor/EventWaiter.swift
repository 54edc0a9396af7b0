import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Waits for the engine's event socket, and for the engine's one timer, on a thread of its own,
/// and runs the engine's handlers with `queue.sync`.
///
/// A `DispatchSource` costs two wake-ups per burst: dispatch's manager thread sees the socket in
/// epoll, then a worker thread runs the handler; a timer (`asyncAfter`) costs the same two. On a
/// virtual machine a wake-up costs tens of microseconds, more than the engine's own work for a
/// change. `queue.sync` from this thread onto the idle serial queue runs the handler right here,
/// so a burst, or a timer that fires, costs one wake-up, as a hand-rolled netlink loop's does; the
/// handlers still run under the queue's exclusion, as every other piece of the engine's state
/// does. One thread per namespace monitored, asleep in `poll` otherwise.
final class EventWaiter: Sendable {
    private let control = LockedState(WaiterControl())
    private let channel: WakeChannel

    /// Starts the thread. `keepAlive` (the sockets) is released by the thread when it ends, on
    /// `queue`, so the descriptor stays open while it may still be polled.
    ///
    /// - Parameters:
    ///   - readable: runs on `queue` when `fileDescriptor` is readable (or has an error pending).
    ///   - due: runs on `queue` when the deadline set with `wake(at:)` has passed.
    /// - Throws: when no pipe or thread can be made (descriptors or threads exhausted).
    init(fileDescriptor: Int32, queue: DispatchQueue, keepAlive: AnyObject,
         readable: @escaping @Sendable () -> Void, due: @escaping @Sendable () -> Void) throws(ReachabilityError) {
        channel = try WakeChannel()
        let loop = WaitLoop(fileDescriptor: fileDescriptor, channel: channel, queue: queue, control: control,
                            keepAlive: KeptAlive(object: keepAlive), readable: readable, due: due)
        let retained = Unmanaged.passRetained(loop).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<WaitLoop>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, retained)
        guard result == 0 else {
            Unmanaged<WaitLoop>.fromOpaque(retained).release()
            throw .system(function: "pthread_create", errno: result)
        }
        pthread_detach(thread)
    }

    /// Runs `due` once `deadline` has passed (an earlier pending deadline stands). From any thread.
    func wake(at deadline: DispatchTime) {
        control.withLock { control in
            control.deadline = min(control.deadline ?? .max, deadline.uptimeNanoseconds)
        }
        channel.poke()
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

/// A pipe that wakes the thread from `poll`. Both the waiter and its thread hold it, and its
/// ends close only when both are done: a write never meets a closed reader (SIGPIPE).
private final class WakeChannel: Sendable {
    let reader: Int32
    let writer: Int32

    init() throws(ReachabilityError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .system(function: "pipe", errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        reader = ends[0]
        writer = ends[1]
    }

    /// Makes the reader readable; a full pipe is readable already.
    func poke() {
        var byte: UInt8 = 1
        _ = write(writer, &byte, 1)
    }

    /// Empties the pipe.
    func drain() {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(reader, $0.baseAddress, $0.count) }) > 0 {}
    }

    deinit {
        close(reader)
        close(writer)
    }
}

/// What the waiter's callers tell its thread.
private struct WaiterControl {
    var stopped = false
    /// When `due` runs next (`DispatchTime` nanoseconds), if it is to run.
    var deadline: UInt64?
}

/// The thread's side. `@unchecked Sendable`: handed to the thread once; only the thread touches
/// `keepAlive`, and `control` is a lock.
private final class WaitLoop: @unchecked Sendable {
    let fileDescriptor: Int32
    let channel: WakeChannel
    let queue: DispatchQueue
    let control: LockedState<WaiterControl>
    var keepAlive: KeptAlive?
    let readable: @Sendable () -> Void
    let due: @Sendable () -> Void

    init(fileDescriptor: Int32, channel: WakeChannel, queue: DispatchQueue, control: LockedState<WaiterControl>,
         keepAlive: KeptAlive, readable: @escaping @Sendable () -> Void, due: @escaping @Sendable () -> Void) {
        self.fileDescriptor = fileDescriptor
        self.channel = channel
        self.queue = queue
        self.control = control
        self.keepAlive = keepAlive
        self.readable = readable
        self.due = due
    }
}

extension WaitLoop {
    func run() {
        var descriptors = [
            pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: channel.reader, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let (stopped, deadline) = control.withLock { ($0.stopped, $0.deadline) }
            if stopped { break }
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = poll(&descriptors, 2, Self.timeout(until: deadline))
            if ready < 0 {
                if errno == EINTR { continue }
                break  // cannot wait any more; the engine's synchronous paths still drain
            }
            if descriptors[1].revents != 0 { channel.drain() }
            // POLLERR too: an overrun (ENOBUFS) is reported through the handler's drain.
            if descriptors[0].revents & Int16(POLLIN | POLLERR) != 0 {
                if control.withLock({ $0.stopped }) { break }
                queue.sync(execute: readable)
            } else if descriptors[0].revents & Int16(POLLNVAL | POLLHUP) != 0 {
                break
            }
            if isDue() { queue.sync(execute: due) }
        }
        // The sockets die on the engine's queue, after any handler still running there.
        let sockets = keepAlive
        keepAlive = nil
        queue.async { withExtendedLifetime(sockets) {} }
    }

    /// Clears the deadline when it has passed. - Returns: whether it had.
    private func isDue() -> Bool {
        control.withLock { control in
            guard !control.stopped, let deadline = control.deadline,
                  deadline <= DispatchTime.now().uptimeNanoseconds else { return false }
            control.deadline = nil
            return true
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
