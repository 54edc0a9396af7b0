import ArgumentParser
import NetworkReachabilityCore

/// `reachability watch [TARGET ...] [--netns NAME|PATH] [--json] [--count N] [--timeout SECONDS]`.
///
/// Prints the state of each target when it starts, then one record each time a target's state
/// changes, until SIGINT or SIGTERM, until `--count` records were printed, or until `--timeout`
/// passed; it exits 0 in all three cases.
struct Watch: ParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        _superCommandName: Reachability.name,
        abstract: "Print the reachability of targets now and each time it changes.",
        discussion: "Stops with status 0 on SIGINT or SIGTERM, after --count records, or after --timeout."
    )

    @Argument(help: ArgumentHelp("IPv4 or IPv6 addresses, 0.0.0.0, :: or host names; '*' or none for the general path.", valueName: "target"))
    var targets: [String] = []

    @OptionGroup var namespaceOptions: NamespaceOptions
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var probeOptions: ProbeOptions
    @OptionGroup var loggingOptions: LoggingOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after printing this many records, across all targets.", valueName: "n"))
    var count: Int?

    @Option(name: .customLong("timeout"), parsing: .unconditional,
            help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var timeoutText: String?

    /// `--timeout` in seconds; nil without it (or when it is not a number, which `validate` refuses).
    var timeout: Double? { timeoutText.flatMap(Double.init) }

    func validate() throws {
        if let count, count < 1 {
            throw ValidationError("--count must be at least 1")
        }
        if let timeoutText, !(timeout.map { $0 > 0 && $0.isFinite } ?? false) {
            throw ValidationError(
                "--timeout takes a number of seconds greater than 0, not '\(timeoutText)' (leave it out to watch until interrupted)")
        }
    }

    func run() throws {
        let specifications = targets.isEmpty ? [.general] : targets.map { TargetSpecification(target: $0) }
        let printer = RecordPrinter(
            formatter: outputOptions.formatter(targets: specifications.map(\.recordTarget), probing: probeOptions.asksConnectivity),
            limit: count
        )
        try DispatchPreflight.ensureAvailable()
        let session = WatchSession(printer: printer, timeout: timeout)
        let namespace = namespaceOptions.namespace
        // Every target is checked before anything is printed: bad input prints no record.
        let monitors = try specifications.map { specification in
            (specification: specification, monitor: try specification.makeMonitor(namespace: namespace))
        }
        try monitors.forEach { try probeOptions.configure($0.monitor) }
        session.run(monitors)
    }
}
