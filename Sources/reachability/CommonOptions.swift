import ArgumentParser
import NetworkReachabilityCore

/// `--netns NAME|PATH`, shared by the commands that monitor something.
struct NamespaceOptions: ParsableArguments {
    @Option(
        name: .customLong("netns"),
        help: ArgumentHelp(
            """
            The network namespace to monitor: a name from 'ip netns' (/run/netns/NAME), \
            or a path to an nsfs file (a value with a '/').
            """,
            valueName: "name|path"
        )
    )
    var netns: String?

    /// The namespace to monitor; the process's own without `--netns`.
    var namespace: NetworkNamespace {
        // A value holding a `/` is a path to an nsfs file, anything else a name from `ip netns`.
        netns.map { $0.contains("/") ? .path($0) : .named($0) } ?? .current
    }

    func validate() throws {
        if netns?.isEmpty == true {
            throw ValidationError("--netns needs a namespace name or a path to an nsfs file")
        }
    }
}

/// `--json`, shared by the commands that print records.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON object per line instead of aligned text.")
    var json = false

    /// The formatter for records of `targets` (the strings records will carry).
    func formatter(targets: [String], probing: Bool = false) -> any RecordFormatter {
        makeRecordFormatter(json: json, targets: targets, probing: probing)
    }
}
