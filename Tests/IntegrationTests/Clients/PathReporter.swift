import Foundation
import ReachabilityCompat  // on Apple's platforms: import Network and import SystemConfiguration

// A client program of the project's own (written here, not copied), using the members of Apple's
// iOS and macOS 26 SDK exactly as Apple documents them: the monitor's `queue`, exhaustive switches
// over every `NWPath.UnsatisfiedReason` and `NWPath.LinkQuality`, gateways matched as
// `.hostPort(.ipv4(...), _)`, `SCNetworkReachabilityGetTypeID()`, `SCCopyLastError()`, and
// `for await path in NWPathMonitor()`. It names nothing of NetworkReachability's own.

/// Apple's `NWPath.Status` has no description: clients give it one.
extension NWPath.Status: CustomStringConvertible {
    public var description: String {
        switch self {
        case .satisfied: "satisfied"
        case .unsatisfied: "unsatisfied"
        case .requiresConnection: "requiresConnection"
        }
    }
}

/// One path as the client logs it.
struct PathReport: Equatable, Sendable {
    var status: String
    var reason: String
    var gateways: [String]
    var quality: String
    var usesWiredEthernet: Bool

    init(_ path: NWPath) {
        status = path.status.description
        switch path.unsatisfiedReason {
        case .notAvailable: reason = "notAvailable"
        case .cellularDenied: reason = "cellularDenied"
        case .wifiDenied: reason = "wifiDenied"
        case .localNetworkDenied: reason = "localNetworkDenied"
        case .vpnInactive: reason = "vpnInactive"
        }
        gateways = path.gateways.compactMap { gateway in
            if case let .hostPort(.ipv4(address), _) = gateway { return "\(address)" }
            if case let .hostPort(host: .ipv6(address), port: _) = gateway { return "\(address)" }
            return nil
        }
        switch path.linkQuality {
        case .unknown: quality = "unknown"
        case .minimal: quality = "minimal"
        case .moderate: quality = "moderate"
        case .good: quality = "good"
        }
        usesWiredEthernet = path.usesInterfaceType(.wiredEthernet)
    }
}

/// Watches the general path with `pathUpdateHandler` and records each report.
final class PathReporter: @unchecked Sendable {
    let monitor = NWPathMonitor()
    let reports = Recorder<PathReport>()
    /// What the monitor's `queue` was before `start(queue:)`.
    let queueBeforeStart: DispatchQueue?
    private let queue = DispatchQueue(label: "PathReporter")

    init() {
        queueBeforeStart = monitor.queue
    }

    /// Whether the monitor's `queue` is the one it was started on.
    var startedOnItsQueue: Bool { monitor.queue === queue }

    func start() {
        monitor.pathUpdateHandler = { [reports] path in
            precondition(path.localEndpoint == nil && path.remoteEndpoint == nil && !path.isUltraConstrained)
            reports.append(PathReport(path))
        }
        monitor.start(queue: queue)
    }

    func stop() {
        monitor.cancel()
    }

    /// A path's report and its `debugDescription`.
    struct FirstPath: Sendable {
        var report: PathReport
        var description: String
    }

    /// The first path of `for await path in NWPathMonitor()`.
    static func firstPathOfASequence() async -> FirstPath? {
        for await path in NWPathMonitor() {
            return FirstPath(report: PathReport(path), description: path.debugDescription)
        }
        return nil
    }

    /// The SystemConfiguration functions Apple's SDK has beside the flags: the type identifier,
    /// and the last error after a name that cannot be a host name.
    static func systemConfigurationErrors() -> (typeID: CFTypeID, code: Int, domain: String) {
        let target = SCNetworkReachabilityCreateWithName(nil, "")
        precondition(target == nil)
        let error = SCCopyLastError() as Error as NSError
        return (SCNetworkReachabilityGetTypeID(), error.code, error.domain)
    }
}
