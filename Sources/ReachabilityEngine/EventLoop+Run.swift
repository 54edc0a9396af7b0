import ReachabilityLoop
import ReachabilityNetlink
import ReachabilitySystem
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The loop's thread: `poll`, then the turns it woke for.
extension LoopRun {
    func run() {
        // Kept across iterations and refilled in place: a wake-up (every kernel event) allocates
        // nothing here.
        var descriptors: [pollfd] = []
        // The watch itself, not its closure: a closure in a tuple element is stored reabstracted,
        // which costs an allocation each time it goes in and each time it comes out.
        var handlers: [(token: Int, watch: DescriptorWatch)] = []
        // The boot clock's descriptor, polled at index 2 once a timer needs it, and the deadline
        // it is armed for.
        var bootClock: Int32 = -1
        var armedBootDeadline: UInt64?
        // The control's `pollSetVersion` the poll set was made for (nil: not made yet).
        var pollSetVersion: UInt64?
        Self.nameThisThread()
        thread.servePosted = { [unowned self] in
            for work in takePosted() { turn(work) }
        }
        thread.install()
        defer { thread.uninstall() }
        while true {
            let (stopped, deadline, closing) = control.withLock { control in
                defer { if !control.closing.isEmpty { control.closing.removeAll() } }
                // `poll` writes only `revents`, which it sets for every entry: the set stands
                // until a watch or the boot clock changes.
                if pollSetVersion != control.pollSetVersion {
                    pollSetVersion = control.pollSetVersion
                    handlers.removeAll(keepingCapacity: true)
                    for (token, watch) in control.watches { handlers.append((token, watch)) }
                    handlers.sort { $0.token < $1.token }
                    descriptors.removeAll(keepingCapacity: true)
                    descriptors.append(pollfd(fd: eventSocket, events: Int16(POLLIN), revents: 0))
                    descriptors.append(pollfd(fd: thread.wakeReader, events: Int16(POLLIN), revents: 0))
                    bootClock = control.bootClock ?? -1
                    // A negative descriptor is ignored by `poll`: the watches always start at index 3.
                    descriptors.append(pollfd(fd: bootClock, events: Int16(POLLIN), revents: 0))
                    for handler in handlers {
                        descriptors.append(pollfd(fd: handler.watch.fileDescriptor, events: Int16(POLLIN), revents: 0))
                    }
                }
                // A closure, not a key path: a key path into a generic type is made anew on
                // every turn, its generic arguments looked up by demangling.
                let bootDeadline = control.bootTimers.values.lazy.map { $0.deadline }.min()
                if bootClock >= 0, bootDeadline != armedBootDeadline {
                    BootClockTimer.arm(bootClock, at: bootDeadline)
                    armedBootDeadline = bootDeadline
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
                break  // cannot wait any more; reads from other threads are refused from now on
            }
            if descriptors[1].revents != 0 { thread.drainWake() }
            // POLLERR too: an overrun (ENOBUFS) is reported through the handler's drain.
            if descriptors[0].revents & Int16(POLLIN | POLLERR) != 0 {
                if control.withLock({ $0.stopped }) { break }
                turn { $0.eventSocketReadable() }
            } else if descriptors[0].revents & Int16(POLLNVAL | POLLHUP) != 0 {
                break
            }
            if descriptors[2].revents != 0 {
                BootClockTimer.drain(bootClock)
                armedBootDeadline = nil
            }
            for (position, handler) in handlers.enumerated() where descriptors[position + 3].revents != 0 {
                // A descriptor that is not open would wake every poll: stop watching it.
                if descriptors[position + 3].revents & Int16(POLLNVAL) != 0 {
                    control.withLock { _ = $0.watches.removeValue(forKey: handler.token) }
                    continue
                }
                // Unwatched meanwhile (its descriptor is waiting to be closed), or stopping: skip.
                guard control.withLock({ !$0.stopped && $0.watches[handler.token] != nil }) else { continue }
                turn { _ in handler.watch.onReadable() }
            }
            for work in dueTimers() { turn(work) }
            if bootClock >= 0 { for work in dueBootTimers() { turn(work) } }
            for work in takePosted() { turn(work) }
        }
        finish()
    }

    /// The thread's end: posts accepted before `stop` run (one may hold a caller waiting for its
    /// answer), every descriptor is closed, and the owner is released here, on its own thread.
    private func finish() {
        let (remaining, posted) = control.withLock { control in
            control.exited = true
            // Emptied here, so a later `unwatch` finds nothing and closes nothing twice.
            defer {
                control.closing.removeAll()
                control.watches.removeAll()
                control.timers.removeAll()
                control.posted.removeAll()
            }
            let clock = (control.bootClock ?? -1) >= 0 ? [control.bootClock!] : []
            control.bootTimers.removeAll()
            control.bootClock = nil
            return (control.closing + control.watches.values.map { $0.fileDescriptor } + clock, control.posted)
        }
        remaining.forEach(Syscalls.close)
        for work in posted { turn(work) }
        thread.servePosted = {}
        thread.closeWake()
        owner = nil
    }

    /// Runs one piece of work against the owner, ends the turn, then runs the deliveries it made
    /// for monitors scheduled on this thread: one wake-up from the kernel's message to the callback.
    private func turn(_ work: LoopWork<Owner.Message>) {
        switch work {
        case .message(let message): turn { $0.receive(message) }
        case .run(let body): turn { _ in body() }
        case .answer(let compute, let reply): turn({ _ in compute() }, then: reply)
        }
    }

    private func turn(_ body: (Owner) -> Void, then afterwards: () -> Void = {}) {
        guard let owner else { return afterwards() }
        body(owner)
        owner.endTurn()
        afterwards()
        thread.outbox?.turnEnded()
    }

    /// Removes and returns the timers whose deadline has passed, earliest first, and those of
    /// one deadline in the order they were made: tokens only grow.
    private func dueTimers() -> [LoopWork<Owner.Message>] {
        control.withLock { Self.takeDue(from: &$0.timers, now: DispatchTime.now().uptimeNanoseconds, unless: $0.stopped) }
    }

    /// The boot clock's timers whose deadline has passed, as `dueTimers`.
    private func dueBootTimers() -> [LoopWork<Owner.Message>] {
        control.withLock { Self.takeDue(from: &$0.bootTimers, now: BootClockTimer.now(), unless: $0.stopped) }
    }

    private static func takeDue(from timers: inout [Int: LoopTimer<Owner.Message>], now: UInt64,
                                unless stopped: Bool) -> [LoopWork<Owner.Message>] {
        guard !stopped, timers.values.contains(where: { $0.deadline <= now }) else { return [] }
        let due = timers.filter { $0.value.deadline <= now }
            .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
        for (token, _) in due { timers[token] = nil }
        return due.map { $0.value.work }
    }

    /// Removes and returns the posted work, in the order it was posted (none once stopping: the
    /// thread's end runs it).
    private func takePosted() -> [LoopWork<Owner.Message>] {
        control.withLock { control in
            guard !control.stopped, !control.posted.isEmpty else { return [] }
            defer { control.posted.removeAll(keepingCapacity: true) }
            return control.posted
        }
    }

    /// Names the calling thread, so `top -H`, a debugger and the tests tell the library's loops
    /// from other threads. Through `/proc/thread-self/comm`: Glibc's module does not export
    /// `pthread_setname_np`, and `prctl` is variadic. A failure (no /proc, no descriptor) only
    /// leaves the name as it was.
    private static func nameThisThread() {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = LoopThread.name.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
        Syscalls.close(descriptor)
    }

    /// `poll`'s timeout in milliseconds, rounded up so that the deadline has passed on waking; -1 without one.
    private static func timeout(until deadline: UInt64?) -> Int32 {
        guard let deadline else { return -1 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard deadline > now else { return 0 }
        return Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
    }
}
