import ArgumentParser
import NetworkReachabilityCore

/// `--probe URL [--probe-expect TEXT] [--probe-timeout S] [--probe-interval S] [--probe-ca FILE]`
/// and `--portal-api`: the connectivity probe and the network's captive-portal API, shared by
/// `check`, `watch` and `wait` (docs/semantics.md, "Connectivity").
struct ProbeOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Also probe connectivity: http://HOST[:PORT]/PATH or https://HOST[:PORT]/PATH (204, or 200 with --probe-expect), or tcp://HOST:PORT.",
        valueName: "url"))
    var probe: String?

    @Option(name: .customLong("probe-expect"),
            help: ArgumentHelp("With an http:// or https:// probe, a status 200 whose body holds this text is full connectivity.", valueName: "text"))
    var probeExpect: String?

    @Option(name: .customLong("probe-timeout"), help: ArgumentHelp("Seconds one probe may take; default 5, or the interval when shorter.", valueName: "seconds"))
    var probeTimeout: Double?

    @Option(name: .customLong("probe-interval"),
            help: ArgumentHelp("Seconds between probes while connectivity is full; default 300.", valueName: "seconds"))
    var probeInterval: Double?

    @Option(name: .customLong("probe-ca"),
            help: ArgumentHelp("With an https:// probe, trust the root certificates of this PEM file instead of the system's.",
                               valueName: "file"))
    var probeCA: String?

    @Flag(name: .customLong("portal-api"),
          help: "Fetch the captive-portal API the network announced (RFC 8908) even without --probe; --probe-ca applies to it.")
    var portalAPI = false

    /// `--probe` or `--portal-api`: the records show connectivity, and `check` waits for the answer.
    var asksConnectivity: Bool { probe != nil || portalAPI }

    func validate() throws {
        if probe == nil, probeExpect != nil || probeTimeout != nil || probeInterval != nil {
            throw ValidationError("--probe-expect, --probe-timeout and --probe-interval need --probe URL")
        }
        if probe == nil, !portalAPI, probeCA != nil {
            throw ValidationError("--probe-ca needs --probe URL or --portal-api")
        }
        for (name, value) in [("--probe-timeout", probeTimeout), ("--probe-interval", probeInterval)] {
            if let value, !(value > 0 && value.isFinite && value <= 86_400) {
                throw ValidationError("\(name) must be a number of seconds greater than 0 and at most 86400")
            }
        }
    }

    /// The probe asked for; nil without `--probe`.
    ///
    /// A `--probe-interval` alone shorter than the default timeout lowers the timeout to it; only
    /// a `--probe-timeout` given longer than a `--probe-interval` given is refused.
    ///
    /// - Throws: `ReachabilityError.invalidProbe` for a URL or numbers the library rejects.
    func makeProbe() throws -> ConnectivityProbe? {
        guard let probe else { return nil }
        if let probeTimeout, let probeInterval, probeTimeout > probeInterval {
            // The options conflict, not the URL: the message names the options and leaves the URL out.
            throw CommandFailure.optionConflict("--probe-timeout \(Self.seconds(probeTimeout)) is longer than "
                + "--probe-interval \(Self.seconds(probeInterval)): give a --probe-timeout at most the --probe-interval")
        }
        if let problem = ProbeURLForm.problem(with: probe) {
            throw ReachabilityError.invalidProbe(probe, reason: problem)
        }
        return try ConnectivityProbe(
            url: probe, expecting: probeExpect,
            timeout: probeTimeout.map { .milliseconds(Int64(($0 * 1000).rounded())) },
            interval: .milliseconds(Int64(((probeInterval ?? 300) * 1000).rounded())),
            caFile: probeCA
        )
    }

    /// `2`, `1.5`: seconds as a user typed them.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(value)
    }

    /// Configures `monitor` with the probe, if one was asked for.
    func configure(_ monitor: PathMonitor) throws {
        if let probe = try makeProbe() { monitor.connectivityProbe = probe }
        if portalAPI {
            // Checked as a probe's would be, so that a bad file is refused here rather than logged.
            if let probeCA { _ = try ConnectivityProbe(url: "https://captive-portal-api.invalid/", caFile: probeCA) }
            monitor.captivePortalAPICAFile = probeCA
            monitor.fetchesCaptivePortalAPI = true
        }
    }
}

extension NetworkPath {
    /// What `check` and `wait` succeed on: reachable, and with a probe, full connectivity.
    func meetsGoal(probing: Bool) -> Bool {
        reachabilityStatus.isReachable && (!probing || connectivity == .full)
    }
}
