extension NetworkInterface {
    /// Every interface of a namespace with its kernel state, by index.
    ///
    /// - Parameter namespace: default: the process's own.
    /// - Throws: a namespace error (missing, or no right to enter it).
    public static func statuses(in namespace: NetworkNamespace = .current) throws(ReachabilityError) -> [InterfaceStatus] {
        try EngineRegistry.engine(for: namespace).interfaceStatuses()
    }
}
