import ArgumentParser
import NetworkReachability

/// The `reachability` command: look at, watch and (later) wait for the reachability of a target.
///
/// `main()` is our own so that every failure is one line on standard error with a status other
/// than 0 and 1, which `check` and `wait` use for their answer: library errors exit 2, usage errors
/// keep ArgumentParser's 64.
@main
struct Reachability: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reachability",
        abstract: "Tells whether the network can reach a target, now or as it changes.",
        discussion: """
            TARGET is an IPv4 or IPv6 address (fe80::1%v0 with a scope), 0.0.0.0 or ::. \
            No TARGET means the general path, printed as '*'.
            """,
        subcommands: [Check.self, Watch.self]
    )

    /// Parses the arguments, runs the subcommand, and exits with its status.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            Failure.terminate(with: error)
        }
    }
}
