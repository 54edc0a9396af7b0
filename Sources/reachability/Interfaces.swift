import ArgumentParser
import NetworkReachabilityCore

/// `reachability interfaces [--netns NAME|PATH] [--json]`: list the interfaces of a namespace.
///
/// Index, name, type, operational state, carrier, whether expensive, flags and addresses; an
/// aligned table, or with `--json` one object per interface per line. Exit status 0, or 2 when
/// the namespace cannot be watched.
struct Interfaces: ParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "interfaces",
        _superCommandName: Reachability.name,
        abstract: "List the network interfaces with their type, state, flags and addresses.",
        discussion: "With --json, one object per interface per line."
    )

    @OptionGroup var namespaceOptions: NamespaceOptions

    @Flag(help: "Print one JSON object per interface per line instead of a table.")
    var json = false

    @OptionGroup var loggingOptions: LoggingOptions

    func run() throws {
        let rows = try InterfaceRow.all(in: namespaceOptions.namespace)
        let formatter: any InterfaceFormatter = json ? InterfaceJSONFormatter() : InterfaceTableFormatter(colour: StandardStreams.wantsColour)
        try StandardStreams.writeRecord(formatter.format(rows))
    }
}
