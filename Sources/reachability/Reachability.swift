import ArgumentParser
import NetworkReachabilityCore

/// The `reachability` command: look at, watch and wait for the reachability of a target, list
/// the interfaces, or watch a throwaway namespace change (`demo`).
///
/// `main()` is our own so that every failure is one line on standard error with a status other
/// than 0 and 1, which `check` and `wait` use for their answer: library errors exit 2, usage errors
/// keep ArgumentParser's 64.
@main
struct Reachability: ParsableCommand, VerboseCommand {
    /// The command's name; each subcommand names it as its super command, so that one parsed
    /// on its own (`SubcommandShortcut`) still says `reachability SUBCOMMAND` in its usage.
    static let name = "reachability"

    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Tells whether the network can reach a target, now or as it changes.",
        discussion: """
            TARGET is an IPv4 or IPv6 address (fe80::1%v0 with a scope), 0.0.0.0, :: or a host name. \
            No TARGET (or '*') means the general path, printed as '*'. Colour only on a terminal, never with NO_COLOR. \
            Exit status: 0 reachable (check), ready (wait) or stopped (watch, demo); 1 not reachable (check) or \
            timed out (wait); 2 bad input the library rejected; 64 a usage error. Scripts read --json, one \
            object per line.
            """,
        version: CommandVersion.current,
        subcommands: [Check.self, Watch.self, Wait.self, Interfaces.self, Demo.self]
    )

    @OptionGroup var loggingOptions: LoggingOptions

    /// Parses the arguments, sets up logging, runs the subcommand, and exits with its status.
    static func main() {
        RelocationPages.release()
        do {
            if let direct = SubcommandShortcut.parse(Array(CommandLine.arguments.dropFirst())) {
                try direct.run()
                return
            }
            var command = try parseAsRoot()
            let verbose = (command as? any VerboseCommand)?.loggingOptions.verbose ?? false
            CommandLogging.bootstrap(verbose: verbose)
            try command.run()
        } catch {
            Failure.terminate(with: error)
        }
    }
}
