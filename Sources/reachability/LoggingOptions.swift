import ArgumentParser
import Logging

/// `--verbose`, shared by every subcommand (and accepted before the subcommand's name).
struct LoggingOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Log what the library does (engine start and stop, resyncs) to standard error.")
    var verbose = false
}

/// A command that takes `--verbose`.
protocol VerboseCommand {
    var loggingOptions: LoggingOptions { get }
}

/// The one place that sets up swift-log for the process.
enum CommandLogging {
    /// Sends every log message of the library to standard error, never standard output (which
    /// carries records that scripts parse): debug and above with `--verbose`, else warnings and
    /// errors only. swift-log allows one bootstrap per process; `main` calls this once.
    static func bootstrap(verbose: Bool) {
        let level: Logger.Level = verbose ? .debug : .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
