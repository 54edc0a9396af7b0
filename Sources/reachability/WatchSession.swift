import Dispatch
import NetworkReachabilityCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The running `watch`: every monitor delivers on the library's engine thread, where the kernel's
/// message was read (one thread wake-up a change), and the printer writes each record whole under
/// its lock, so records of several targets never interleave. The stop conditions (SIGINT, SIGTERM,
/// the timeout) are dispatch sources on a queue of the session's. Nothing polls or sleeps; the
/// main thread parks (`MainThread.park()`).
///
/// Make it before the monitors: it holds the signals before the library starts threads, and
/// the stop conditions apply while the monitors are being made.
struct WatchSession {
    private let queue = DispatchQueue(label: "reachability.watch")
    private let printer: RecordPrinter
    /// The signal sources and the timer; alive as long as the session runs.
    private let stopSources: [any DispatchSourceProtocol]

    /// Holds SIGINT and SIGTERM and starts the stop conditions.
    ///
    /// - Parameters:
    ///   - printer: writes the records and ends the process after `--count` of them.
    ///   - timeout: `--timeout` in seconds, from now; nil for none.
    init(printer: RecordPrinter, timeout: Double?) {
        TerminationSignals.hold()
        self.printer = printer
        var sources: [any DispatchSourceProtocol] = TerminationSignals.makeSources(queue: queue) { exit(0) }
        if let timeout {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + timeout)
            timer.setEventHandler { exit(0) }
            timer.resume()
            sources.append(timer)
        }
        self.stopSources = sources
    }

    /// Starts the monitors of `targets` and serves the queue until the process exits.
    ///
    /// Each monitor's first path is its current state, each later one a change.
    func run(_ targets: [(specification: TargetSpecification, monitor: PathMonitor)]) -> Never {
        for (specification, monitor) in targets {
            let printer = self.printer
            monitor.pathUpdateHandler = { path in
                let addresses = specification.resolvedAddresses(in: path)
                printer.print(Record(time: .now(), target: specification.recordTarget, path: path, addresses: addresses))
            }
            monitor.scheduleOnEngineThread()
        }
        withExtendedLifetime((targets.map(\.monitor), stopSources)) {
            MainThread.park()
        }
    }
}
