import ReachabilityLoop
import ReachabilityConnectivity
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Logging

extension ConnectivityProber {
    private static let logger = Logger(label: "network-reachability")

    /// Logs an answer at debug level (the command's `--verbose`): the reason a path carries, and
    /// the detail it does not (which address, which errno, which status).
    package func log(_ answer: ConnectivityAnswer) {
        Self.logger.debug("connectivity probe answered", metadata: [
            "probe": "\(configuration.probe?.url ?? "none")", "namespace": "\(namespace)", "connectivity": "\(answer.connectivity)",
            "reason": "\(answer.reason ?? "none")", "detail": "\(answer.detail)",
        ])
    }
}
