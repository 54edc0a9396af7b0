import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// SIGINT and SIGTERM, received by dispatch sources instead of ending the process by their default action.
enum TerminationSignals {
    /// The signals that end a `watch`.
    static let numbers: [Int32] = [SIGINT, SIGTERM]

    /// The signals that end a `demo`, which must remove its namespace: also SIGHUP, for a closed terminal.
    static let demoNumbers: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Ignores the signals' default action and blocks them in this thread and every thread it
    /// starts from now on. Call it first, before the library starts any thread.
    ///
    /// On Linux libdispatch reads signals from a `signalfd`, registered asynchronously after a
    /// source is resumed; until then a signal that a thread does not block would meet `SIG_IGN`
    /// and be lost. Blocked, it stays pending until the source reads it.
    static func hold(_ numbers: [Int32] = numbers) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers {
            sigaddset(&set, number)
            signal(number, SIG_IGN)
        }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// One source per signal, calling `handler` on `queue`; returns once libdispatch has
    /// registered them. Keep them alive.
    ///
    /// Waiting for the registration matters: until libdispatch has installed its own handler
    /// for a source, a signal taken by a thread that does not block it would meet `SIG_IGN` and
    /// be lost.
    static func makeSources(
        _ numbers: [Int32] = numbers, queue: DispatchQueue, handler: @escaping @Sendable () -> Void
    ) -> [any DispatchSourceSignal] {
        let registered = DispatchGroup()
        let sources = numbers.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: handler)
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            return source
        }
        registered.wait()
        return sources
    }
}
