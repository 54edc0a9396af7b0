import ReachabilitySystem
/// What a program needs to know from the flags: AFNetworking's `AFNetworkReachabilityStatus`.
public enum ReachabilityStatus: Int, Sendable, CustomStringConvertible {
    /// No evaluation has finished yet.
    case unknown = -1
    /// The target cannot be reached without a connection being made first, or at all.
    case notReachable = 0
    /// Reachable over a cellular interface.
    case reachableViaWWAN = 1
    /// Reachable over any other interface (Apple calls it Wi-Fi; on Linux: Ethernet, Wi-Fi, tunnels, loopback).
    case reachableViaWiFi = 2

    /// AFNetworking's `AFNetworkReachabilityStatusForFlags`, exactly.
    ///
    /// - Parameter flags: the flags of an evaluation.
    public init(flags: ReachabilityFlags) {
        let isReachable = flags.contains(.reachable)
        let needsConnection = flags.contains(.connectionRequired)
        let canConnectAutomatically = flags.contains(.connectionOnDemand) || flags.contains(.connectionOnTraffic)
        let canConnectWithoutUserInteraction = canConnectAutomatically && !flags.contains(.interventionRequired)
        let isNetworkReachable = isReachable && (!needsConnection || canConnectWithoutUserInteraction)
        if !isNetworkReachable {
            self = .notReachable
        } else if flags.contains(.isWWAN) {
            self = .reachableViaWWAN
        } else {
            self = .reachableViaWiFi
        }
    }

    /// Whether the status is one of the two reachable ones.
    public var isReachable: Bool { self == .reachableViaWWAN || self == .reachableViaWiFi }

    /// AFNetworking's strings: "Unknown", "Not Reachable", "Reachable via WWAN", "Reachable via WiFi".
    public var localizedDescription: String {
        switch self {
        case .unknown: "Unknown"
        case .notReachable: "Not Reachable"
        case .reachableViaWWAN: "Reachable via WWAN"
        case .reachableViaWiFi: "Reachable via WiFi"
        }
    }

    /// The case name, as `reachability --json` prints it: `unknown`, `notReachable`, ...
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .notReachable: "notReachable"
        case .reachableViaWWAN: "reachableViaWWAN"
        case .reachableViaWiFi: "reachableViaWiFi"
        }
    }
}
