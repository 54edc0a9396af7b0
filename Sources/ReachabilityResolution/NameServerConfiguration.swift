import ReachabilityModel
import ReachabilityNetlink
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// Which name servers serve a namespace's paths: `supportsDNS`.
///
/// For a named namespace `/etc/netns/NAME/resolv.conf` takes the place of `/etc/resolv.conf`
/// when it exists, as `ip netns exec` arranges. When every server it names is systemd-resolved's
/// stub (127.0.0.53, or 127.0.0.54), the stub is seen through where `sources` allow (the
/// process's own namespace): resolved's `resolv.conf` lists its upstream servers, and networkd's
/// `DNS=` lines (handed in by the engine) say which of them belong to one link. Any other server,
/// a local one included (NetworkManager's dnsmasq at 127.0.1.1, Docker's 127.0.0.11), serves every
/// path: what it forwards to cannot be read. A file is read again only when its inode, size or
/// modification time changed.
package struct NameServerConfiguration {
    package let sources: NameServerSources
    private let candidates: [String]
    private var resolvConf = StampedServers()
    private var resolved = StampedServers()
    /// The file and errno of the last read that failed for want of a resource (EMFILE, ENFILE,
    /// ENOMEM): the answer is then unknown, not "no name server", and the file is read again next time.
    package private(set) var readFailure: (path: String, errno: Int32)?

    /// resolved's stub listeners: 127.0.0.53 (the stub) and 127.0.0.54 (its proxy mode).
    package static let resolvedStubs: Set<IPAddress> = [try! IPAddress("127.0.0.53"), try! IPAddress("127.0.0.54")]

    /// - Parameter sources: where resolved's and networkd's files are read; `.none` takes a stub as configured.
    package init(namespace: NetworkNamespace, sources: NameServerSources = .none) {
        self.sources = sources
        if case .named(let name) = namespace {
            candidates = ["/etc/netns/\(name)/resolv.conf", "/etc/resolv.conf"]
        } else {
            candidates = ["/etc/resolv.conf"]
        }
    }

    /// Reads the files that changed.
    ///
    /// - Parameter linkServers: networkd's servers of each link (`NetworkdLinkRecords`); empty
    ///   where only whether any server exists matters (the resolver threads).
    /// - Returns: which paths a name server serves.
    package mutating func refresh(linkServers: [Int: Set<IPAddress>] = [:]) -> NameServerScope {
        readFailure = nil
        guard let path = candidates.first(where: { access($0, F_OK) == 0 }) else {
            resolvConf = StampedServers()
            return .none
        }
        guard let servers = Self.refreshed(&resolvConf, from: path, failure: &readFailure) else { return .global }  // unknown for now: as before
        var upstreams: [IPAddress]?
        if !servers.isEmpty, servers.allSatisfy(Self.resolvedStubs.contains), let file = sources.resolvedServersFile {
            upstreams = access(file, F_OK) == 0 ? Self.refreshed(&resolved, from: file, failure: &readFailure) : nil
        }
        return Self.scope(servers: servers, upstreams: upstreams, linkServers: linkServers)
    }

    /// The servers `state` holds for `path`, read again if the file changed; nil when it could not be read.
    private static func refreshed(_ state: inout StampedServers, from path: String,
                                  failure: inout (path: String, errno: Int32)?) -> [IPAddress]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let stamp = [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), path.hashValue]
        guard stamp != state.stamp else { return state.servers }
        switch read(path) {
        case .success(let text):
            state = StampedServers(stamp: stamp, servers: nameServers(inResolvConf: text))
            return state.servers
        case .failure(let shortage):
            failure = (path, shortage.errno)
            return nil
        }
    }

    /// Which paths `servers` (resolv.conf's) serve, `upstreams` being resolved's list when every
    /// server is its stub and the list could be read (nil: not seen through).
    package static func scope(servers: [IPAddress], upstreams: [IPAddress]?, linkServers: [Int: Set<IPAddress>]) -> NameServerScope {
        guard !servers.isEmpty else { return .none }
        guard let upstreams, servers.allSatisfy(resolvedStubs.contains) else { return .global }
        guard !upstreams.isEmpty else { return .none }
        var links: Set<Int> = []
        for upstream in upstreams {
            if case .index(let index)? = upstream.scope {
                links.insert(index)  // a link-local server, written with its link
                continue
            }
            let owners = linkServers.filter { $0.value.contains(upstream) }.keys
            // Listed for no link by networkd: global, or given by another manager, which does not say.
            guard !owners.isEmpty else { return .global }
            links.formUnion(owners)
        }
        return .links(links)
    }

    private struct StampedServers {
        var stamp: [Int] = []
        var servers: [IPAddress] = []
    }

    private struct ResourceShortage: Error { var errno: Int32 }

    private static func read(_ path: String) -> Result<String, ResourceShortage> {
        guard let file = fopen(path, "r") else {
            return [EMFILE, ENFILE, ENOMEM].contains(errno) ? .failure(ResourceShortage(errno: errno)) : .success("")
        }
        defer { fclose(file) }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        // resolv.conf is small; 1 MiB is far past any real one and bounds a hostile file.
        while text.utf8.count < 1 << 20, fgets(&buffer, Int32(buffer.count), file) != nil {
            text += buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
        return .success(text)
    }

    /// The servers resolv.conf text names, in order: the address of each `nameserver` line, as
    /// glibc's resolver reads it (comments with `#` or `;` ignored; an argument that is no address skipped).
    package static func nameServers(inResolvConf text: String) -> [IPAddress] {
        var servers: [IPAddress] = []
        for rawLine in text.split(whereSeparator: { $0 == "\n" }) {
            let line = rawLine.drop(while: { $0 == " " || $0 == "\t" })
            guard line.hasPrefix("nameserver") else { continue }
            let rest = line.dropFirst("nameserver".count)
            guard let first = rest.first, first == " " || first == "\t" else { continue }
            let argument = rest.drop(while: { $0 == " " || $0 == "\t" }).prefix(while: { !$0.isWhitespace && $0 != "#" && $0 != ";" })
            if !argument.isEmpty, let address = try? IPAddress(String(argument)) { servers.append(address) }
        }
        return servers
    }

    /// Whether resolv.conf text names at least one server.
    package static func hasNameServer(inResolvConf text: String) -> Bool {
        !nameServers(inResolvConf: text).isEmpty
    }
}
