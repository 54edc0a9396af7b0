import Logging
import ReachabilityConnectivity
import ReachabilityModel
import ReachabilityResolution

/// One run of a prober, on its worker queue: the network's captive-portal API when one is
/// announced, then the probe unless the API said `captive`. It holds no reference to the prober,
/// so a prober that goes away mid-run cancels it (its signal) instead of waiting for it.
struct ProbeJob: Sendable {
    let configuration: ProberConfiguration
    let namespace: NetworkNamespace
    /// The engine's pool; nil when no engine of the namespace could be had (names then fail).
    let resolver: ResolverPool?
    /// The announced API's URI for the paths probed; nil: none announced.
    let api: String?

    private static let logger = Logger(label: "network-reachability")

    /// - Returns: the answer; nil when cancelled.
    func run(signal: ProbeSignal) -> ConnectivityAnswer? {
        var portal: CaptivePortalStatus?
        var apiFailure: String?
        if let api {
            switch fetch(api, signal: signal) {
            case nil:
                return nil
            case .success(let status) where status.captive:
                // The network's own word: no probe needed to call it a portal.
                return ConnectivityAnswer(connectivity: .portal, portalURL: status.userPortalURL, source: .captivePortalAPI(api),
                                          detail: "captive: true", reason: ConnectivityReason.captivePortalAPI, captivePortal: status)
            case .success(let status):
                portal = status
            case .failure(let failure):
                let why = failure.detail
                // A failing API changes nothing but its own field: the probe (or `unknown`) stands.
                apiFailure = why
                Self.logger.debug("captive-portal API failed", metadata: [
                    "uri": "\(api)", "namespace": "\(namespace)", "detail": "\(why)",
                ])
            }
        }
        guard let probe = configuration.probe else {
            if let api, let portal {
                return ConnectivityAnswer(connectivity: .full, source: .captivePortalAPI(api), detail: "captive: false",
                                          captivePortal: portal)
            }
            // Not `full`: the schedule then retries with the backoff, and a new announcement at once.
            return ConnectivityAnswer(connectivity: .unknown, detail: apiFailure ?? "no captive-portal API announced",
                                      reason: apiFailure.map { _ in ConnectivityReason.captivePortalAPIFailed })
        }
        var answer = ProbeRunner(probe: probe, namespace: namespace, resolver: resolver, signal: signal).run()
        answer?.captivePortal = portal
        return answer
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
