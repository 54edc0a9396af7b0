import ArgumentParser
import NetworkReachabilityCore

/// `reachability wait [TARGET ...] [--any|--all] [--interface NAME ...] [-4|-6] [--netns NAME|PATH]
/// [--timeout SECONDS|forever]`: block until the network is there.
///
/// Exit status 0 as soon as every goal is met: the targets reachable, all of them at once
/// (`--all`, the default) or any one (`--any`); each `--interface` routable; with `-4`/`-6`,
/// that family's general path (`0.0.0.0`, `::`) reachable. At once when they already are. 1 when
/// the timeout (60 s unless given, `WaitTimeout`) passes first, 2 or 64 for bad input. It prints
/// nothing on success, so it fits a service's `ExecStartPre=`; on a timeout one line on standard
/// error names each goal that kept it waiting and why. SIGINT and SIGTERM end it by their default action.
struct Wait: ParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        _superCommandName: Reachability.name,
        abstract: "Wait until targets are reachable: all of them (--all, the default) or any one (--any).",
        discussion: """
            Exits 0 as soon as the targets are reachable (all of them, or any with --any; with --probe: \
            and their connectivity is full), each --interface is routable (up, with carrier and an address \
            beyond link-local, as networkd's 'routable'), and the family of -4 or -6 has a reachable \
            general path; 1 when the timeout passes first (60 s unless --timeout says otherwise), and \
            2 or 64 for bad input. No TARGET, --interface, -4 or -6 waits for the general path ('*'). \
            An --interface that does not exist yet is said at once on standard error, and waited for. \
            Waits for the kernel's events, never polls. Prints nothing unless it times out; then one \
            line names each target or interface that kept it waiting, and why.
            """
    )

    @Argument(help: ArgumentHelp("IPv4 or IPv6 addresses, 0.0.0.0, :: or host names; '*' or none for the general path.",
                                 valueName: "target"))
    var targets: [String] = []

    @Flag(name: .customLong("all"), help: "Wait until all targets are reachable at once (the default).")
    var all = false

    @Flag(name: .customLong("any"), help: "Wait until any one of the targets is reachable.")
    var any = false

    @Option(name: .customLong("interface"), parsing: .singleValue,
            help: ArgumentHelp("Also wait until this interface is routable: up, with carrier and an address beyond link-local (repeatable).",
                               valueName: "name"))
    var interfaces: [String] = []

    @Flag(name: [.customShort("4"), .customLong("ipv4")], help: "Also wait until IPv4's general path (0.0.0.0) is reachable.")
    var ipv4 = false

    @Flag(name: [.customShort("6"), .customLong("ipv6")], help: "Also wait until IPv6's general path (::) is reachable.")
    var ipv6 = false

    @OptionGroup var namespaceOptions: NamespaceOptions

    @Option(name: .customLong("timeout"), parsing: .unconditional,
            help: ArgumentHelp("Give up with status 1 after this many seconds; 0 or 'forever' waits for ever; default: 60.",
                               valueName: "seconds"))
    var timeoutText: String?

    @OptionGroup var probeOptions: ProbeOptions
    @OptionGroup var loggingOptions: LoggingOptions

    /// `--timeout`, or the default.
    var timeout: WaitTimeout {
        timeoutText.flatMap(WaitTimeout.init(argument:)) ?? .seconds(WaitTimeout.defaultSeconds)
    }

    func validate() throws {
        if all && any {
            throw ValidationError("--any and --all exclude each other: give --all (every target, the default) or --any (the first one)")
        }
        if let timeoutText, WaitTimeout(argument: timeoutText) == nil {
            throw ValidationError(WaitTimeout.invalidMessage(timeoutText))
        }
        if let bad = interfaces.first(where: { !Self.isInterfaceName($0) }) {
            throw ValidationError("--interface takes an interface name of 1 to 15 characters without '/', ':' or spaces, not '\(bad)'")
        }
    }

    func run() throws {
        try DispatchPreflight.ensureAvailable()
        let namespace = namespaceOptions.namespace
        let session = WaitSession(goals: WaitGoalList(targets: targets, interfaces: interfaces, ipv4: ipv4, ipv6: ipv6),
                                  mode: any ? .any : .all, timeout: timeout, timeoutIsDefault: timeoutText == nil,
                                  probing: probeOptions.probe != nil, namespace: namespace)
        let monitors = try session.makeMonitors()
        try monitors.targets.forEach { try probeOptions.configure($0) }
        noteMissingInterfaces(in: namespace)
        session.run(monitors)
    }

    /// Says at once, on standard error, which `--interface` names no interface has yet: a typo
    /// would otherwise wait out its timeout without a word. The wait goes on, since an interface
    /// may still appear (a container's veth, a USB modem, a VPN's tun).
    private func noteMissingInterfaces(in namespace: NetworkNamespace) {
        guard !interfaces.isEmpty, let statuses = try? NetworkInterface.statuses(in: namespace) else { return }
        var told = Set(statuses.map(\.interface.name))
        for name in interfaces where told.insert(name).inserted {
            Failure.printError("no interface \(name) exists yet; waiting for it to appear")
        }
    }

    /// Whether `name` can be a Linux interface name (`dev_valid_name`): 1 to 15 bytes, not `.` or
    /// `..`, without `/`, `:` or white space.
    static func isInterfaceName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 15 && name != "." && name != ".."
            && !name.contains { $0 == "/" || $0 == ":" || $0.isWhitespace }
    }
}
