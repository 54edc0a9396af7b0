import ReachabilityModel
import ReachabilitySystem
/// What an engine opens inside its namespace, made together there and freed together: the event
/// socket, the lookup socket, the link inspector (sysfs or ioctls, for device traits) and, where
/// networkd runs, its link state files.
package final class EngineSockets {
    package let events: KernelEventSocket
    package let lookup: RouteLookupSocket
    package let inspector: LinkInspector
    /// networkd's `CAPTIVE_PORTAL=` and `DNS=` per link: the process's own namespace, or a test root.
    package let networkd: NetworkdLinkRecords?

    /// Must run inside the namespace: every socket stays bound to the namespace it was made in.
    package init(namespaceIsProcessOwn: Bool, policy: InterfacePolicy) throws(NetlinkError) {
        events = try KernelEventSocket()
        lookup = try RouteLookupSocket()
        inspector = LinkInspector(namespaceIsProcessOwn: namespaceIsProcessOwn, policy: policy)
        let sources = policy.nameServerSources(namespaceIsProcessOwn: namespaceIsProcessOwn)
        networkd = sources.networkdLinksDirectory.map(NetworkdLinkRecords.init(root:))
    }

    /// Opens both sockets inside `namespace`; links are classified under `policy`.
    package static func open(in namespace: NetworkNamespace, namespaceIsProcessOwn: Bool,
                     policy: InterfacePolicy) throws(ReachabilityError) -> EngineSockets {
        try NamespaceEntry.run(in: namespace) { () throws(NetlinkError) in
            try EngineSockets(namespaceIsProcessOwn: namespaceIsProcessOwn, policy: policy)
        }
    }

    /// Rebuilds the event socket's caches from fresh dumps on the lookup socket, which joined no group.
    package func refill() throws(ReachabilityError) {
        do { try events.refill(using: lookup.netlinkSocket) } catch { throw error.reachabilityError }
    }

    /// Links and addresses from the caches, with each link's device traits.
    package func freshSnapshot() -> KernelSnapshot {
        events.forgetTouched()
        var snapshot = events.snapshot()
        inspector.inspect(&snapshot.links, addresses: snapshot.addresses)
        networkd?.apply(to: &snapshot.links)
        return snapshot
    }

    /// Brings `snapshot` up to date in place with the links the caches touched
    /// (`KernelEventSocket.takeTouched`): only those are made again and inspected, and Wi-Fi
    /// links measured again.
    package func update(_ snapshot: inout KernelSnapshot, touched: [LinkTables.Touch]) {
        events.update(&snapshot, touched: touched)
        guard !touched.isEmpty else { return }
        inspector.inspect(&snapshot.links, touched: touched, addresses: snapshot.addresses)
        networkd?.apply(to: &snapshot.links)
    }
}
