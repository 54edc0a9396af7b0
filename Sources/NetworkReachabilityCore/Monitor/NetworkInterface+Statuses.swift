import ReachabilityDelivery
import ReachabilityEngine
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
extension NetworkInterface {
    /// Every interface of a namespace with its kernel state, by index.
    ///
    /// - Parameters:
    ///   - namespace: default: the process's own.
    ///   - interfacePolicy: which names count as expensive or constrained; default: none.
    /// - Throws: a namespace error (missing, or no right to enter it).
    public static func statuses(in namespace: NetworkNamespace = .current,
                                interfacePolicy: InterfacePolicy = InterfacePolicy()) throws(ReachabilityError) -> [InterfaceStatus] {
        try EngineRegistry.engine(for: namespace, policy: interfacePolicy).interfaceStatuses()
    }
}
