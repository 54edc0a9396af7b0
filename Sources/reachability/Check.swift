import ArgumentParser
import NetworkReachability

/// `reachability check [TARGET] [--local ADDR] [--netns NAME|PATH] [--json]`: print the state once.
///
/// Exit status 0 when the target is reachable, 1 when it is not, 2 for bad input.
struct Check: ParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the reachability of a target once.",
        discussion: "Exits 0 when the target is reachable, 1 when it is not, and 2 or 64 for bad input."
    )

    @Argument(help: ArgumentHelp("An IPv4 or IPv6 address, 0.0.0.0, :: or a host name; none for the general path.", valueName: "target"))
    var target: String?

    @Option(help: ArgumentHelp("Check the path from this local address to TARGET.", valueName: "addr"))
    var local: String?

    @OptionGroup var namespaceOptions: NamespaceOptions
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var loggingOptions: LoggingOptions

    func run() throws {
        let specification = TargetSpecification(target: target, local: local)
        let monitor = try specification.makeMonitor(namespace: namespaceOptions.namespace)
        let path = monitor.currentPath
        let record = Record(
            time: .now(), target: specification.recordTarget, path: path,
            addresses: specification.resolvedAddresses(in: path)
        )
        let formatter = outputOptions.formatter(targets: [record.target])
        try StandardStreams.writeRecord(formatter.format(record))
        if !path.reachabilityStatus.isReachable {
            throw ExitCode(1)
        }
    }
}
