import Dispatch
import NetworkReachabilityCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The running `demo`: monitors, the change timer, the stop timer and the signals all on one
/// serial queue, so records and the narration of each change come out in order and the cleanup
/// never runs beside a change. The main thread parks (`MainThread.park()`).
struct DemoSession {
    /// `--duration`: stop after this many seconds; nil to run until a signal.
    var duration: Double?
    /// `--interval`: seconds between two changes.
    var interval: Double

    private let queue = DispatchQueue(label: "reachability.demo")

    init(duration: Double?, interval: Double) {
        self.duration = duration
        self.interval = interval
    }

    /// Makes the namespace, starts watching it and changing it; returns only by ending the process.
    ///
    /// SIGINT, SIGTERM and SIGHUP are held from the start, so one that comes while the namespace is
    /// being made waits until the signal sources exist, then removes it.
    /// - Throws: `CommandFailure` when the namespace cannot be made (nothing is left behind), or
    ///   `ReachabilityError` when it cannot be watched (the namespace is removed on exit).
    func run() throws -> Never {
        TerminationSignals.hold(TerminationSignals.demoNumbers)
        signal(SIGPIPE, SIG_IGN)  // a closed stdout is an error to report, not a death that skips the cleanup

        let namespace = DemoNamespace()
        try namespace.create()
        let watched: [(specification: TargetSpecification, role: String)] = [
            (.general, "the general path"),
            (.address(DemoNamespace.gateway), "the gateway"),
            (.address(DemoNamespace.remote), "beyond it"),
        ]
        let monitors = try watched.map { try $0.specification.makeMonitor(namespace: .named(namespace.name)) }

        let colour = StandardStreams.wantsColour
        let narrator = Narrator(colour: colour)
        let targets = watched.map(\.specification.recordTarget)
        let printer = RecordPrinter(
            formatter: HumanRecordFormatter(targetWidth: targets.map(\.count).max() ?? 1, colour: colour), limit: nil
        )
        let watching = watched.map { "\($0.specification.recordTarget) (\($0.role))" }.joined(separator: ", ")
        narrator.say("""
            namespace \(namespace.name): v0 \(DemoNamespace.hostAddress)/\(DemoNamespace.prefixLength) \
            with its veth peer v0p, default route via \(DemoNamespace.gateway)
            """)
        narrator.say("watching \(watching)")
        narrator.say("one change every \(formatSeconds(interval)) s; Ctrl-C stops and removes the namespace")

        let finish: @Sendable () -> Void = {
            if let removed = DemoCleanup.removeNow() {
                narrator.say("removed the namespace \(removed)", exitOnFailure: false)
            }
            exit(0)
        }
        var sources: [any DispatchSourceProtocol] = TerminationSignals.makeSources(
            TerminationSignals.demoNumbers, queue: queue, handler: finish
        )

        for (entry, monitor) in zip(watched, monitors) {
            let target = entry.specification.recordTarget
            monitor.pathUpdateHandler = { path in
                printer.print(Record(time: .now(), target: target, path: path, addresses: nil))
            }
            monitor.start(queue: queue)
        }

        let script = DemoScript(namespace: namespace)
        let changes = DispatchSource.makeTimerSource(queue: queue)
        changes.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
        changes.setEventHandler {
            let step = script.takeNextStep()
            narrator.say("ip \(step.arguments.joined(separator: " "))  (\(step.effect))")
            do {
                try script.perform(step)
            } catch {
                Failure.terminate(with: error)  // exits 2; atexit removes the namespace
            }
        }
        changes.resume()
        sources.append(changes)

        if let duration {
            let stop = DispatchSource.makeTimerSource(queue: queue)
            stop.schedule(deadline: .now() + duration)
            stop.setEventHandler(handler: finish)
            stop.resume()
            sources.append(stop)
        }

        withExtendedLifetime((monitors, sources)) {
            MainThread.park()
        }
    }
}

/// Writes the demo's `#` lines: what it did, between the records, with the records' time column.
struct Narrator: Sendable {
    /// Whether to add ANSI colours.
    var colour: Bool

    /// Writes `TIME  # TEXT` as one line.
    ///
    /// - Parameters:
    ///   - text: what happened, on one line.
    ///   - exitOnFailure: end the process (status 2) when standard output cannot be written;
    ///     false to ignore the failure, as on the way out.
    func say(_ text: String, exitOnFailure: Bool = true) {
        let time = Timestamp.now().description
        let line = colour
            ? "\u{1B}[2m\(time)\u{1B}[0m  \u{1B}[36m# \(text)\u{1B}[0m\n"
            : "\(time)  # \(text)\n"
        do {
            try StandardStreams.writeRecord(line)
        } catch {
            if exitOnFailure { Failure.terminate(with: error) }
        }
    }
}
