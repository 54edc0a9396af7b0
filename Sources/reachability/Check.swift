import ArgumentParser
import NetworkReachabilityCore

/// `reachability check [TARGET] [--local ADDR] [--netns NAME|PATH] [--json] [--probe URL ...]`: print the state once.
///
/// Exit status 0 when the target is reachable (and, with `--probe`, connectivity is `full`),
/// 1 when it is not, 2 for bad input.
struct Check: ParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        _superCommandName: Reachability.name,
        abstract: "Print the reachability of a target once.",
        discussion: """
            Exits 0 when the target is reachable (with --probe: and connectivity is full), 1 when it \
            is not, and 2 or 64 for bad input.
            """
    )

    @Argument(help: ArgumentHelp("An IPv4 or IPv6 address, 0.0.0.0, :: or a host name; '*' or none for the general path.", valueName: "target"))
    var target: String?

    @Option(help: ArgumentHelp("Check the path from this local address to TARGET.", valueName: "addr"))
    var local: String?

    @OptionGroup var namespaceOptions: NamespaceOptions
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var probeOptions: ProbeOptions
    @OptionGroup var loggingOptions: LoggingOptions

    func run() throws {
        let specification = TargetSpecification(target: target, local: local)
        let monitor = try specification.makeMonitor(namespace: namespaceOptions.namespace)
        try probeOptions.configure(monitor)
        let probing = monitor.connectivityProbe != nil
        let path = probeOptions.asksConnectivity ? ConnectivityCheck.run(monitor) : monitor.currentPath
        let record = Record(
            time: .now(), target: specification.recordTarget, path: path,
            addresses: specification.resolvedAddresses(in: path)
        )
        let formatter = outputOptions.formatter(targets: [record.target], probing: probeOptions.asksConnectivity)
        try StandardStreams.writeRecord(formatter.format(record))
        if !path.meetsGoal(probing: probing) {
            throw ExitCode(1)
        }
    }
}
