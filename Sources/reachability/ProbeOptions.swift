import ArgumentParser
import NetworkReachabilityCore

/// `--probe URL [--probe-expect TEXT] [--probe-timeout S] [--probe-interval S]`: the connectivity
/// probe, shared by `check`, `watch` and `wait` (docs/semantics.md, "Connectivity").
struct ProbeOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Also probe connectivity: http://HOST[:PORT]/PATH (204, or 200 with --probe-expect) or tcp://HOST:PORT.",
        valueName: "url"))
    var probe: String?

    @Option(name: .customLong("probe-expect"),
            help: ArgumentHelp("With an http:// probe, a status 200 whose body holds this text is full connectivity.", valueName: "text"))
    var probeExpect: String?

    @Option(name: .customLong("probe-timeout"), help: ArgumentHelp("Seconds one probe may take; default 5.", valueName: "seconds"))
    var probeTimeout: Double?

    @Option(name: .customLong("probe-interval"),
            help: ArgumentHelp("Seconds between probes while connectivity is full; default 300.", valueName: "seconds"))
    var probeInterval: Double?

    func validate() throws {
        if probe == nil, probeExpect != nil || probeTimeout != nil || probeInterval != nil {
            throw ValidationError("--probe-expect, --probe-timeout and --probe-interval need --probe URL")
        }
        for (name, value) in [("--probe-timeout", probeTimeout), ("--probe-interval", probeInterval)] {
            if let value, !(value > 0 && value.isFinite && value <= 86_400) {
                throw ValidationError("\(name) must be a number of seconds greater than 0 and at most 86400")
            }
        }
    }

    /// The probe asked for; nil without `--probe`.
    ///
    /// - Throws: `ReachabilityError.invalidProbe` for a URL or numbers the library rejects.
    func makeProbe() throws -> ConnectivityProbe? {
        guard let probe else { return nil }
        return try ConnectivityProbe(
            url: probe, expecting: probeExpect,
            timeout: .milliseconds(Int64(((probeTimeout ?? 5) * 1000).rounded())),
            interval: .milliseconds(Int64(((probeInterval ?? 300) * 1000).rounded()))
        )
    }

    /// Configures `monitor` with the probe, if one was asked for.
    func configure(_ monitor: PathMonitor) throws {
        if let probe = try makeProbe() { monitor.connectivityProbe = probe }
    }
}

extension NetworkPath {
    /// What `check` and `wait` succeed on: reachable, and with a probe, full connectivity.
    func meetsGoal(probing: Bool) -> Bool {
        reachabilityStatus.isReachable && (!probing || connectivity == .full)
    }
}
