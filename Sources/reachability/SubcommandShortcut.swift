import ArgumentParser

/// A subcommand named first, read by `QuickArguments` (`check`, `watch` and `wait` in their plain forms)
/// or parsed on its own rather than through the whole command tree.
///
/// `parseAsRoot()` on `Reachability` builds the tree of every subcommand, names each by
/// reflection and walks their option groups, before it looks at the arguments: in a `check`
/// that is most of the process's own time from exec to exit, and most of the binary's pages it
/// makes resident. Parsing `check ARGS` as `Check` alone gives the same value for every argument
/// list `Check` accepts. Anything else (a help request, a usage error, `--version`, a completion
/// script request, options before the subcommand's name) throws here and is parsed again through
/// the whole tree, which answers it exactly as before.
enum SubcommandShortcut {
    /// The subcommand ready to run, or nil when the arguments need the whole tree.
    static func parse(_ arguments: [String]) -> Runnable? {
        guard let name = arguments.first else { return nil }
        let rest = Array(arguments.dropFirst())
        switch name {
        case Check.configuration.commandName: return Check.quickParse(rest).map(Runnable.init) ?? Runnable(parsing: Check.self, rest)
        case Watch.configuration.commandName: return Watch.quickParse(rest).map(Runnable.init) ?? Runnable(parsing: Watch.self, rest)
        case Wait.configuration.commandName: return Wait.quickParse(rest).map(Runnable.init) ?? Runnable(parsing: Wait.self, rest)
        case Interfaces.configuration.commandName: return Runnable(parsing: Interfaces.self, rest)
        case Demo.configuration.commandName: return Runnable(parsing: Demo.self, rest)
        default: return nil
        }
    }

    /// A parsed subcommand and its `--verbose`, typed so that running it needs no dynamic cast.
    struct Runnable {
        private let runCommand: () throws -> Void

        init?<Command: ParsableCommand & VerboseCommand>(parsing command: Command.Type, _ arguments: [String]) {
            guard let parsed = try? Command.parseAsRoot(arguments), let command = parsed as? Command else { return nil }
            self.init(command)
        }

        init<Command: ParsableCommand & VerboseCommand>(_ command: Command) {
            var command = command
            runCommand = {
                CommandLogging.bootstrap(verbose: command.loggingOptions.verbose)
                try command.run()
            }
        }

        /// Sets up logging and runs the subcommand.
        func run() throws { try runCommand() }
    }
}
