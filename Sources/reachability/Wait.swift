import ArgumentParser
import NetworkReachability

/// `reachability wait [TARGET] [--netns NAME|PATH] [--timeout SECONDS]`: block until reachable.
///
/// Exit status 0 as soon as the target is reachable (at once when it already is), 1 when
/// `--timeout` passes first, 2 or 64 for bad input. It prints nothing on success, so it fits a
/// service's `ExecStartPre=`; on a timeout one line on standard error says what the target's
/// state was. Without `--timeout` it waits for ever; SIGINT and SIGTERM end it by their default action.
struct Wait: ParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        abstract: "Wait until a target is reachable.",
        discussion: """
            Exits 0 as soon as TARGET is reachable (with --probe: and connectivity is full), 1 when \
            --timeout passes first, and 2 or 64 for bad input. Waits for the kernel's events, never polls. Prints nothing unless it times out.
            """
    )

    @Argument(help: ArgumentHelp("An IPv4 or IPv6 address, 0.0.0.0, :: or a host name; none for the general path.",
                                 valueName: "target"))
    var target: String?

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
        let specification = TargetSpecification(target: target)
        let session = WaitSession(target: specification.recordTarget, timeout: timeout)
        let monitor = try specification.makeMonitor(namespace: namespaceOptions.namespace)
        try probeOptions.configure(monitor)
        session.run(monitor)
    }
}
