/// A subcommand's arguments in the few plain forms a health check, an entrypoint or a sidecar
/// passes, read without swift-argument-parser.
///
/// ArgumentParser builds a command's arguments by reflecting over its properties, and the Swift
/// runtime answers each of those generic and dynamic-cast questions by scanning every protocol
/// conformance in the binary: for `check`, more CPU time than the whole engine and a good part of
/// the binary's resident pages. The subcommands that run most (`check`, `watch`, `wait`) read the plain
/// forms here and fill the same command value. Anything else gives nil, and ArgumentParser parses
/// the arguments as before: a help request, `--version`, an option this reader does not know,
/// `--name=value`, a value that begins with `-` or is empty, an option given twice, `--`, or
/// `help` anywhere.
struct QuickArguments {
    /// The arguments that are no option's name or value, in order.
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// The logging flag's two spellings, which every subcommand takes.
    static let verboseFlags: Set<String> = ["-v", "--verbose"]

    /// Reads `arguments`: `NAME VALUE` for a name in `valueOptions`, `NAME` for one in
    /// `flagOptions` (or a `verboseFlags` spelling), anything else not beginning with `-` a positional.
    init?(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if valueOptions.contains(argument) {
                guard values[argument] == nil, let value = remaining.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
                    return nil
                }
                values[argument] = value
            } else if flagOptions.contains(argument) || Self.verboseFlags.contains(argument) {
                guard flags.insert(argument).inserted else { return nil }
            } else if argument.isEmpty || argument.hasPrefix("-") || argument == "help" {
                return nil
            } else {
                positionals.append(argument)
            }
        }
        // A flag given by two of its spellings (`-v --verbose`): ArgumentParser's business.
        guard flags.intersection(Self.verboseFlags).count <= 1 else { return nil }
    }

    /// The value given to option `name`, if any.
    func value(_ name: String) -> String? { values[name] }

    /// Whether the flag was given by any of its `spellings`; nil when by more than one.
    func flag(_ spellings: Set<String>) -> Bool? {
        let given = flags.intersection(spellings).count
        return given > 1 ? nil : given == 1
    }

    /// Whether `-v` or `--verbose` was given.
    var verbose: Bool { !flags.isDisjoint(with: Self.verboseFlags) }
}

extension NamespaceOptions {
    /// `--netns`.
    static let quickValueOptions: Set = ["--netns"]

    /// The options as `quick` gives them.
    init(_ quick: QuickArguments) {
        self.init()
        netns = quick.value("--netns")
    }
}

extension OutputOptions {
    /// `--json`.
    static let quickFlagOptions: Set = ["--json"]

    /// The options as `quick` gives them.
    init(_ quick: QuickArguments) {
        self.init()
        json = quick.flag(["--json"]) == true
    }
}

extension LoggingOptions {
    /// The options as `quick` gives them.
    init(_ quick: QuickArguments) {
        self.init()
        verbose = quick.verbose
    }
}

extension ProbeOptions {
    /// No probe and no captive-portal API: the quick forms take none of their options.
    static func none() -> ProbeOptions {
        var options = ProbeOptions()
        options.probe = nil
        options.probeExpect = nil
        options.probeTimeout = nil
        options.probeInterval = nil
        options.probeCA = nil
        options.portalAPI = false
        return options
    }
}
