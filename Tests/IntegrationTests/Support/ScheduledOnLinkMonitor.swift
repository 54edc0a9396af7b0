import Dispatch
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// A monitor of the on-link address of a fresh IPv4 LAN (`v0`, its peer `v0p`), scheduled with a
/// flags callback that records, once its first callback (the link has carrier) has come.
struct ScheduledOnLinkMonitor {
    static let carrier: ReachabilityFlags = [.reachable, .isDirect]
    static let noCarrier: ReachabilityFlags = [.reachable, .connectionRequired, .isDirect]

    let monitor: PathMonitor
    let flags = Recorder<ReachabilityFlags>()
    let queue: DispatchQueue

    init(in ns: Namespace, function: String = #function) throws {
        let plan = AddressPlan.ipv4
        try ns.addLAN(plan)
        monitor = try ns.monitor(plan.onLink)
        queue = callbackQueue(function)
        monitor.setCallback { [flags] in flags.append($0) }
        monitor.setDispatchQueue(queue)
        flags.wait(forLast: Self.carrier)
    }
}
