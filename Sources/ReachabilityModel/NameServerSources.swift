/// Where the engine reads what a local stub resolver forwards to: systemd-resolved's directory
/// (its `resolv.conf` lists the upstream servers of every link) and systemd-networkd's link state
/// directory (a file per link, whose `DNS=` line says which servers are that link's).
///
/// Both describe the namespace resolved and networkd run in: they are read for the process's own
/// namespace only. Another namespace has none (nil), so a stub named in its resolv.conf is taken
/// as configured: nothing there tells its upstreams.
package struct NameServerSources: Sendable, Hashable {
    /// resolved's runtime directory, holding `resolv.conf`; nil where the stub is not seen through.
    package var resolvedDirectory: String?
    /// networkd's link state files, `IFINDEX` each; nil where networkd is not read.
    package var networkdLinksDirectory: String?

    package static let resolvedDefault = "/run/systemd/resolve"
    package static let networkdLinksDefault = "/run/systemd/netif/links"

    package init(resolvedDirectory: String?, networkdLinksDirectory: String?) {
        self.resolvedDirectory = resolvedDirectory
        self.networkdLinksDirectory = networkdLinksDirectory
    }

    /// Nothing is read: a namespace other than the process's own.
    package static let none = NameServerSources(resolvedDirectory: nil, networkdLinksDirectory: nil)
    /// systemd's own paths.
    package static let system = NameServerSources(resolvedDirectory: resolvedDefault, networkdLinksDirectory: networkdLinksDefault)

    /// resolved's file of upstream servers, if read here.
    package var resolvedServersFile: String? { resolvedDirectory.map { $0 + "/resolv.conf" } }
}

extension InterfacePolicy {
    /// Where an engine of this policy reads resolved's and networkd's files: systemd's paths for
    /// the process's own namespace, none for another (debug builds: the policy's fixture
    /// directories, for every namespace, when a test set them).
    package func nameServerSources(namespaceIsProcessOwn: Bool) -> NameServerSources {
        fixtures.systemd ?? (namespaceIsProcessOwn ? .system : .none)
    }
}
