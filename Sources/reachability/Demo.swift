import ArgumentParser
import NetworkReachabilityCore

/// `reachability demo [--duration SECONDS] [--interval SECONDS]`: watch a throwaway namespace change.
///
/// Makes the namespace `nrx-demo-PID` (`DemoNamespace`), watches its general path, its gateway and
/// an address beyond it, and every `--interval` seconds changes one thing (`DemoScript`): the
/// carrier, the default route, an `unreachable` route. Records print as `watch` prints them, and
/// each change as a `#` line between them. It runs until SIGINT, SIGTERM or SIGHUP, or until
/// `--duration` passed, then removes the namespace and exits 0. Without the right to make a
/// namespace: one line saying so, status 2.
struct Demo: ParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        _superCommandName: Reachability.name,
        abstract: "Watch a throwaway network namespace whose links and routes change on a timer.",
        discussion: """
            Needs root (it makes the namespace nrx-demo-PID with 'ip netns add'). Stops on Ctrl-C, \
            SIGTERM or after --duration, and removes the namespace. Without root, watch this host \
            instead: reachability watch.
            """
    )

    @Option(help: ArgumentHelp("Stop after this many seconds; default: run until interrupted.", valueName: "seconds"))
    var duration: Double?

    @Option(help: ArgumentHelp("Seconds between two changes.", valueName: "seconds"))
    var interval: Double = 1.5

    @OptionGroup var loggingOptions: LoggingOptions

    func validate() throws {
        if let duration, !(duration > 0 && duration.isFinite) {
            throw ValidationError("--duration must be a number of seconds greater than 0")
        }
        if !(interval >= 0.1 && interval.isFinite) {
            throw ValidationError("--interval must be a number of seconds, at least 0.1")
        }
    }

    func run() throws {
        try DispatchPreflight.ensureAvailable()
        try DemoSession(duration: duration, interval: interval).run()
    }
}
