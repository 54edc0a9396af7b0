import ReachabilityLoop
import Logging
import ReachabilityConnectivity
import ReachabilityModel
import ReachabilityResolution

/// One run of a prober, on its worker queue: each captive-portal API announced for the paths it
/// runs for, then the probe unless every one of them said `captive`. It holds no reference to the
/// prober, so a prober that goes away mid-run cancels it (its signal) instead of waiting for it.
struct ProbeJob: Sendable {
    /// A run's answers, by the API announced for the path they are for (nil: none announced):
    /// monitors of one prober whose paths use interfaces with different APIs each get their own's.
    typealias Answers = [String?: ConnectivityAnswer]

    let configuration: ProberConfiguration
    let namespace: NetworkNamespace
    /// The engine's pool; nil when no engine of the namespace could be had (names then fail).
    let resolver: ResolverPool?
    /// The announced API of each path the run is for; nil among them: a path with none announced.
    let apis: Set<String?>

    private static let logger = Logger(label: "network-reachability")

    /// - Returns: an answer for each of `apis`; nil when cancelled.
    func run(signal: ProbeSignal) -> Answers? {
        var answers: Answers = [:]
        var statuses: [String: CaptivePortalStatus] = [:]
        var failures: [String: String] = [:]
        // In turn, each bounded by the timeout: a namespace's paths rarely name more than one or two.
        for api in apis.compactMap({ $0 }).sorted() {
            switch fetch(api, signal: signal) {
            case nil:
                return nil
            case .success(let status) where status.captive:
                // The network's own word: no probe needed to call it a portal.
                answers[api] = ConnectivityAnswer(connectivity: .portal, portalURL: status.userPortalURL, source: .captivePortalAPI(api),
                                                  detail: "captive: true", reason: ConnectivityReason.captivePortalAPI, captivePortal: status)
            case .success(let status):
                statuses[api] = status
            case .failure(let failure):
                // A failing API changes nothing but its own field: the probe (or `unknown`) stands.
                failures[api] = failure.detail
                Self.logger.debug("captive-portal API failed", metadata: [
                    "uri": "\(api)", "namespace": "\(namespace)", "detail": "\(failure.detail)",
                ])
            }
        }
        let undecided = apis.filter { answers[$0] == nil }
        guard !undecided.isEmpty else { return answers }
        guard let probe = configuration.probe else {
            for api in undecided {
                answers[api] = Self.withoutProbe(api, status: api.flatMap { statuses[$0] }, failure: api.flatMap { failures[$0] })
            }
            return answers
        }
        guard let probed = ProbeRunner(probe: probe, namespace: namespace, resolver: resolver, signal: signal).run() else { return nil }
        for api in undecided {
            var answer = probed
            answer.captivePortal = api.flatMap { statuses[$0] }
            answers[api] = answer
        }
        return answers
    }

    /// The answer without a probe when the API did not say `captive`: `full` on its `captive: false`.
    private static func withoutProbe(_ api: String?, status: CaptivePortalStatus?, failure: String?) -> ConnectivityAnswer {
        if let api, let status {
            return ConnectivityAnswer(connectivity: .full, source: .captivePortalAPI(api), detail: "captive: false", captivePortal: status)
        }
        // Not `full`: the schedule then retries with the backoff, and a new announcement at once.
        return ConnectivityAnswer(connectivity: .unknown, detail: failure ?? "no captive-portal API announced",
                                  reason: failure.map { _ in ConnectivityReason.captivePortalAPIFailed })
    }

    private func fetch(_ api: String, signal: ProbeSignal) -> Result<CaptivePortalStatus, ProbeFailure>? {
        do throws(ReachabilityError) {
            let client = try CaptivePortalAPIClient(uri: api, timeout: configuration.timeout, caFile: configuration.apiRoots,
                                                    namespace: namespace, resolver: resolver, signal: signal)
            return client.fetch()
        } catch {
            return .failure(.failed("\(error)"))
        }
    }
}
