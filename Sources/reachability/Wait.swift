import ArgumentParser
import NetworkReachabilityCore

/// `reachability wait [TARGET ...] [--any|--all] [--netns NAME|PATH] [--timeout SECONDS]`: block until reachable.
///
/// Exit status 0 as soon as the targets are reachable, all of them at once (`--all`, the default)
/// or any one (`--any`), at once when they already are; 1 when
/// `--timeout` passes first, 2 or 64 for bad input. It prints nothing on success, so it fits a
/// service's `ExecStartPre=`; on a timeout one line on standard error says what the state of
/// each target that kept it waiting was. Without `--timeout` it waits for ever; SIGINT and SIGTERM end it by their default action.
struct Wait: ParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        abstract: "Wait until targets are reachable: all of them (--all, the default) or any one (--any).",
        discussion: """
            Exits 0 as soon as the targets are reachable (all of them, or any with --any; with --probe: \
            and their connectivity is full), 1 when --timeout passes first, and 2 or 64 for bad input. \
            Waits for the kernel's events, never polls. Prints nothing unless it times out.
            """
    )

    @Argument(help: ArgumentHelp("IPv4 or IPv6 addresses, 0.0.0.0, :: or host names; none for the general path.",
                                 valueName: "target"))
    var targets: [String] = []

    @Flag(help: "Wait until all targets are reachable at once (--all, the default) or any one of them (--any).")
    var mode: WaitMode = .all

    @OptionGroup var namespaceOptions: NamespaceOptions

    @Option(help: ArgumentHelp("Give up with status 1 after this many seconds; default: wait for ever.", valueName: "seconds"))
    var timeout: Double?

    @OptionGroup var probeOptions: ProbeOptions
    @OptionGroup var loggingOptions: LoggingOptions

    func validate() throws {
        if let timeout, !(timeout > 0 && timeout.isFinite) {
            throw ValidationError("--timeout must be a number of seconds greater than 0")
        }
    }

    func run() throws {
        let specifications = targets.isEmpty ? [.general] : targets.map { TargetSpecification(target: $0) }
        try DispatchPreflight.ensureAvailable()
        let session = WaitSession(targets: specifications.map(\.recordTarget), mode: mode.pathWaitMode, timeout: timeout,
                                  probing: probeOptions.probe != nil)
        let monitors = try specifications.map { try $0.makeMonitor(namespace: namespaceOptions.namespace) }
        try monitors.forEach { try probeOptions.configure($0) }
        session.run(monitors)
    }
}

/// `--all` or `--any`.
enum WaitMode: String, EnumerableFlag {
    case all
    case any

    var pathWaitMode: PathWaitMode { self == .all ? .all : .any }
}
