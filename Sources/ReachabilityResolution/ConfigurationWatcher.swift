import ReachabilityModel
import ReachabilityNetlink
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// Tells an engine which of the files it reads changed, through one inotify instance (each
/// instance costs its own teardown, about 14 ms, so an engine holds one):
///
/// - the resolver's configuration: `/etc/resolv.conf`, `/etc/hosts`, `/etc/nsswitch.conf` and
///   the rest under `/etc`, their copies under `/etc/netns/NAME/`, and the directory a symlinked
///   `resolv.conf` points into (where systemd-resolved or resolvconf rewrite it by rename);
/// - systemd-resolved's list of upstream servers, `resolv.conf` in its directory;
/// - systemd-networkd's link state files, any file in its directory.
///
/// inotify on the directories, not the files: a file replaced by rename keeps no watch. The
/// watches are set again after each change, so a symlink that now points elsewhere is followed,
/// and a directory that did not exist yet is watched through its parent until it appears.
/// Confined to the engine's loop, which polls it (`DescriptorWatching`) and runs its handler.
/// `@unchecked Sendable` for that handler. When no inotify descriptor can be made (the descriptor
/// or inotify-instance limit), `isWatching` is false and the engine reads the files on every pass
/// instead: slower, never wrong.
package final class ConfigurationWatcher: @unchecked Sendable {
    /// The sets of files a change concerns.
    package struct Changes: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// resolv.conf, hosts, nsswitch.conf and their kin: names resolve again.
        package static let resolver = Changes(rawValue: 1 << 0)
        /// resolved's upstream servers.
        package static let resolvedServers = Changes(rawValue: 1 << 1)
        /// networkd's link state files.
        package static let networkdLinks = Changes(rawValue: 1 << 2)
        package static let all: Changes = [.resolver, .resolvedServers, .networkdLinks]
    }

    private static let resolverFileNames: Set<String> = ["resolv.conf", "hosts", "nsswitch.conf", "host.conf", "gai.conf"]
    private static let mask: UInt32 = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)

    /// What one watched directory's entries concern: by name, or (`anyName`) every entry.
    private struct Interest {
        var names: [String: Changes] = [:]
        var anyName: Changes = []

        mutating func add(_ name: String, _ changes: Changes) { names[name, default: []].formUnion(changes) }
        func changes(for name: String) -> Changes { anyName.union(names[name] ?? []) }
        var everything: Changes { names.values.reduce(anyName) { $0.union($1) } }
    }

    private let descriptor: Int32
    private let loop: any DescriptorWatching
    private var token: WatchToken?
    private let namespace: NetworkNamespace
    private let sources: NameServerSources
    private var watches: [Int32: Interest] = [:]

    /// - Parameters:
    ///   - sources: resolved's and networkd's directories to watch (none for another namespace).
    ///   - onChange: runs on the loop's loop after each relevant change, with what it concerned.
    package init(namespace: NetworkNamespace, sources: NameServerSources, loop: any DescriptorWatching,
                 onChange: @escaping @Sendable (Changes) -> Void) {
        self.namespace = namespace
        self.sources = sources
        self.loop = loop
        let injected = SetupFaults.injected(at: .configurationWatch) != nil
        descriptor = injected ? -1 : inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return }
        rewatch()
        // Weak: the handler may be on its way to the loop while the engine lets the watcher go.
        token = loop.watch(descriptor) { [weak self] in
            guard let self, token != nil else { return }
            let changes = readEvents()
            guard !changes.isEmpty else { return }
            rewatch()
            onChange(changes)
        }
    }

    /// Whether inotify works here; without it, callers must read the files themselves.
    package var isWatching: Bool { token != nil && !missedWatch }
    /// A directory could not be watched for want of inotify watches (ENOSPC, the user's
    /// `fs.inotify.max_user_watches`) or memory: a change there would go unseen.
    private var missedWatch = false

    deinit {
        // The loop closes the descriptor once it no longer polls it.
        if let token { loop.unwatch(token) }
    }

    /// The directories to watch and what their entries concern.
    private func targets() -> [String: Interest] {
        var interests: [String: Interest] = [:]
        for name in Self.resolverFileNames { interests["/etc", default: Interest()].add(name, .resolver) }
        var files = ["/etc/resolv.conf", "/etc/hosts"]
        if case .named(let name) = namespace {
            // /etc/netns and /etc/netns/NAME may appear later: their creation re-watches.
            interests["/etc", default: Interest()].add("netns", .resolver)
            interests["/etc/netns", default: Interest()].add(name, .resolver)
            for file in Self.resolverFileNames { interests["/etc/netns/\(name)", default: Interest()].add(file, .resolver) }
            files += ["/etc/netns/\(name)/resolv.conf", "/etc/netns/\(name)/hosts"]
        }
        for file in files {
            guard let resolved = realpath(file, nil) else { continue }
            let path = String(cString: resolved)
            free(resolved)
            if path != file, let (directory, name) = Self.split(path) {
                interests[directory, default: Interest()].add(name, .resolver)
            }
        }
        if let directory = sources.resolvedDirectory {
            interests[directory, default: Interest()].add("resolv.conf", .resolvedServers)
            watchAppearance(of: directory, as: .resolvedServers, in: &interests)
        }
        if let directory = sources.networkdLinksDirectory {
            interests[directory, default: Interest()].anyName.formUnion(.networkdLinks)
            watchAppearance(of: directory, as: .networkdLinks, in: &interests)
        }
        return interests
    }

    /// A daemon's directory that does not exist yet (the daemon has not started) is watched for
    /// through its parent.
    private func watchAppearance(of directory: String, as changes: Changes, in interests: inout [String: Interest]) {
        guard access(directory, F_OK) != 0, let (parent, name) = Self.split(directory) else { return }
        interests[parent, default: Interest()].add(name, changes)
    }

    private static func split(_ path: String) -> (directory: String, name: String)? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return (slash == path.startIndex ? "/" : String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    private func rewatch() {
        guard descriptor >= 0 else { return }
        for wd in watches.keys { inotify_rm_watch(descriptor, wd) }
        watches.removeAll()
        missedWatch = false
        for (directory, interest) in targets() {
            let wd = inotify_add_watch(descriptor, directory, Self.mask)
            if wd >= 0 {
                watches[wd, default: Interest()].names.merge(interest.names) { $0.union($1) }
                watches[wd]!.anyName.formUnion(interest.anyName)
            } else if errno == ENOSPC || errno == ENOMEM {
                missedWatch = true  // ENOENT is a directory that does not exist yet: its parent's watch sees it come
            }
        }
    }

    /// Reads every queued event. - Returns: what the ones that matter concerned.
    private func readEvents() -> Changes {
        var changes: Changes = []
        let size = 16 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            if count <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changes = .all
                } else if event.mask & UInt32(IN_IGNORED) != 0 {
                    // A watched directory went away (not one of our own rm_watch calls: those wds are gone from `watches`).
                    if let interest = watches[event.wd] { changes.formUnion(interest.everything) }
                } else if nameLength > 0, let interest = watches[event.wd] {
                    let namePointer = (buffer + offset + MemoryLayout<inotify_event>.size).assumingMemoryBound(to: CChar.self)
                    changes.formUnion(interest.changes(for: String(cString: namePointer)))
                }
                offset += MemoryLayout<inotify_event>.size + nameLength
            }
        }
        return changes
    }
}
