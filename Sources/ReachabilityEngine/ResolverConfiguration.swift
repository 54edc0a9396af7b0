import ReachabilityLoop
import ReachabilityModel
import ReachabilityResolution

/// The resolver's configuration as an engine knows it: where its files are, which paths a name
/// server serves (`supportsDNS`), and the engine's one inotify instance that follows the files.
struct ResolverConfiguration {
    var nameServers: NameServerConfiguration
    /// Which paths a name server serves, read again when the watcher reports a change (or on
    /// every pass while no watcher runs), never with a `stat` a pass.
    private var scope: NameServerScope?
    /// The engine's one inotify instance: the resolver's configuration, resolved's upstream
    /// servers and networkd's link state files.
    var watcher: ConfigurationWatcher?
    /// Whether the files behind the monitors' answers are watched: from the first scheduled
    /// monitor on. A question asked once (`reachability check`, a read before `start`) reads the
    /// files it needs and watches none: an inotify instance that held a watch costs the process
    /// about 14 ms to tear down, the kernel waiting for a grace period as its marks go.
    var isWatchingFiles = false

    init(nameServers: NameServerConfiguration) {
        self.nameServers = nameServers
    }

    /// Which paths a name server serves now: read again after a change, or when nothing watches.
    mutating func scope(linkServers: @autoclosure () -> [Int: Set<IPAddress>]) -> NameServerScope {
        if scope == nil || watcher?.isWatching != true {
            scope = nameServers.refresh(linkServers: linkServers())
        }
        return scope ?? .none
    }

    /// The files changed (or were not watched until now): the scope is read again with the next pass.
    mutating func changed() {
        scope = nil
    }
}
