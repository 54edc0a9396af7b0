import ReachabilityModel
import ReachabilityNetlink
import ReachabilitySystem
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Tells when the resolver's configuration changed: `/etc/resolv.conf`, `/etc/hosts`,
/// `/etc/nsswitch.conf`, their copies under `/etc/netns/NAME/`, and the directory a symlinked
/// `resolv.conf` points into (where systemd-resolved or resolvconf rewrite it by rename).
///
/// inotify on the directories, not the files: a file replaced by rename keeps no watch. The
/// watches are set again after each change, so a symlink that now points elsewhere is followed.
/// Confined to the engine's queue, where the wait loop (`DescriptorWatching`) runs its handler:
/// no `DispatchSource`. `@unchecked Sendable` for that handler. When no inotify descriptor can be
/// made (the descriptor or inotify-instance limit), `isWatching` is false and the engine reads the
/// files on every pass instead: slower, never wrong.
package final class ResolverConfigurationWatcher: @unchecked Sendable {
    private static let fileNames: Set<String> = ["resolv.conf", "hosts", "nsswitch.conf", "host.conf", "gai.conf"]
    private static let mask: UInt32 = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)

    private let descriptor: Int32
    private let waiter: any DescriptorWatching
    private var token: WatchToken?
    private let namespace: NetworkNamespace
    private var watches: [Int32: String] = [:]
    private var interestingNames: Set<String> = []

    /// - Parameter onChange: runs on `queue` after each relevant change.
    package init(namespace: NetworkNamespace, waiter: any DescriptorWatching, onChange: @escaping @Sendable () -> Void) {
        self.namespace = namespace
        self.waiter = waiter
        #if DEBUG
        let injected = SetupFaults.injected(at: .configurationWatch) != nil
        #else
        let injected = false
        #endif
        descriptor = injected ? -1 : inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return }
        rewatch()
        // Weak: the handler may be on its way to the queue while the engine lets the watcher go.
        token = waiter.watch(descriptor) { [weak self] in
            guard let self, token != nil else { return }
            if readEvents() {
                rewatch()
                onChange()
            }
        }
    }

    /// Whether inotify works here; without it, callers must read the files themselves.
    package var isWatching: Bool { token != nil && !missedWatch }
    /// A directory could not be watched for want of inotify watches (ENOSPC, the user's
    /// `fs.inotify.max_user_watches`) or memory: a change there would go unseen.
    private var missedWatch = false

    deinit {
        // The wait loop closes the descriptor once it no longer polls it.
        if let token { waiter.unwatch(token) }
    }

    /// The directories to watch and the file names that matter in them.
    private func targets() -> (directories: Set<String>, names: Set<String>) {
        var directories: Set<String> = ["/etc"]
        var names = Self.fileNames
        if case .named(let name) = namespace {
            directories.insert("/etc/netns")
            directories.insert("/etc/netns/\(name)")
            // /etc/netns and /etc/netns/NAME may appear later: their creation re-watches.
            names.insert("netns")
            names.insert(name)
        }
        var files = ["/etc/resolv.conf", "/etc/hosts"]
        if case .named(let name) = namespace {
            files += ["/etc/netns/\(name)/resolv.conf", "/etc/netns/\(name)/hosts"]
        }
        for file in files {
            if let resolved = realpath(file, nil) {
                let path = String(cString: resolved)
                free(resolved)
                if let slash = path.lastIndex(of: "/"), path != file {
                    directories.insert(slash == path.startIndex ? "/" : String(path[..<slash]))
                    names.insert(String(path[path.index(after: slash)...]))
                }
            }
        }
        return (directories, names)
    }

    private func rewatch() {
        guard descriptor >= 0 else { return }
        for wd in watches.keys { inotify_rm_watch(descriptor, wd) }
        watches.removeAll()
        let (directories, names) = targets()
        interestingNames = names
        missedWatch = false
        for directory in directories {
            let wd = inotify_add_watch(descriptor, directory, Self.mask)
            if wd >= 0 {
                watches[wd] = directory
            } else if errno == ENOSPC || errno == ENOMEM {
                missedWatch = true  // ENOENT is a directory that does not exist yet: its parent's watch sees it come
            }
        }
    }

    /// Reads every queued event. - Returns: whether one concerned a file that matters.
    private func readEvents() -> Bool {
        var relevant = false
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
                    relevant = true
                } else if event.mask & UInt32(IN_IGNORED) != 0 {
                    // A watched directory went away (not one of our own rm_watch calls: those wds are gone from `watches`).
                    if watches[event.wd] != nil { relevant = true }
                } else if nameLength > 0 {
                    let namePointer = (buffer + offset + MemoryLayout<inotify_event>.size).assumingMemoryBound(to: CChar.self)
                    if interestingNames.contains(String(cString: namePointer)) { relevant = true }
                }
                offset += MemoryLayout<inotify_event>.size + nameLength
            }
        }
        return relevant
    }
}
