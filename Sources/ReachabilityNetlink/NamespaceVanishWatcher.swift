import ReachabilityModel
import ReachabilitySystem
import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// Tells when a monitored namespace goes away for its users.
///
/// The engine's own sockets keep the kernel's namespace alive, so it never dies under us; what
/// goes away is its name: `ip netns del` unlinks `/run/netns/NAME`, and `/proc/PID/ns/net` ends
/// with its process. So: inotify on the file's directory (deletions and renames of that entry,
/// checked against the identity the engine opened), and for `/proc/PID/ns/net` a pidfd, readable
/// when the process exits. `.current` never goes away. Confined to the engine's loop (made before its thread starts, run on it after).
///
/// The descriptor is polled by the engine's loop (no `DispatchSource`). A descriptor that
/// cannot be made for want of descriptors or memory is an error: an engine that could not tell
/// its namespace is gone would report a dead namespace as live. (A kernel without pidfd_open,
/// before 5.3, leaves a `/proc/PID/ns/net` unwatched, as before.) `@unchecked Sendable`: the
/// handler runs on the engine's loop, where everything else of it lives.
package final class NamespaceVanishWatcher: @unchecked Sendable {
    private let loop: any DescriptorWatching
    private var token: WatchToken?
    private var fired = false
    private let namespace: NetworkNamespace
    private let identity: NamespaceIdentity
    private let onVanish: @Sendable () -> Void

    /// - Parameter onVanish: runs once when the namespace is gone (on the loop; during `init` when it is gone already).
    /// - Throws: when the pidfd or inotify descriptor cannot be made (EMFILE, ENFILE, ENOMEM).
    package init?(namespace: NetworkNamespace, identity: NamespaceIdentity, loop: any DescriptorWatching,
          onVanish: @escaping @Sendable () -> Void) throws(NetlinkError) {
        if namespace == .current { return nil }
        self.loop = loop
        self.namespace = namespace
        self.identity = identity
        self.onVanish = onVanish
        let path = namespace.path
        let injected = SetupFaults.injected(at: .vanishWatch)
        if let pid = Self.processID(inProcPath: path) {
            let fd = injected.map { errno = $0; return -1 } ?? CNetlink_pidfdOpen(pid)
            try Self.checkResource(fd, "pidfd_open (namespace vanish watch)")
            if fd >= 0 {
                // Readable once the process has exited.
                // Weak: the loop may run the handler while the engine lets the watcher go.
                token = loop.watch(fd) { [weak self] in
                    self?.stopWatching()
                    self?.vanished()
                }
            }
        } else if let slash = path.lastIndex(of: "/") {
            let directory = slash == path.startIndex ? "/" : String(path[..<slash])
            let fd = injected.map { errno = $0; return -1 } ?? inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            try Self.checkResource(fd, "inotify_init1 (namespace vanish watch)")
            if fd >= 0 {
                let mask = UInt32(IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT)
                if inotify_add_watch(fd, directory, mask) < 0 {
                    let code = errno
                    Syscalls.close(fd)
                    // Out of inotify watches (ENOSPC: `fs.inotify.max_user_watches`) or memory: a
                    // descriptor that watches nothing would never tell. A directory already gone
                    // (ENOENT) is for `check()` below.
                    if code == ENOSPC || code == ENOMEM {
                        throw .system("inotify_add_watch \(directory) (namespace vanish watch)", errno: code)
                    }
                } else {
                    token = loop.watch(fd) { [weak self] in
                        guard let self, token != nil else { return }
                        Self.discard(fd)
                        check()
                    }
                }
            }
        }
        // It may already be gone between the engine's open and this watch.
        check()
    }

    deinit {
        stopWatching()
    }

    /// Reports the namespace gone if its name no longer leads to the identity the engine opened.
    private func check() {
        if (try? NamespaceEntry.identity(of: namespace)) != identity { vanished() }
    }

    private func vanished() {
        guard !fired else { return }
        fired = true
        onVanish()
    }

    /// A descriptor refused for want of a resource is an error; other refusals leave it unwatched.
    private static func checkResource(_ fd: Int32, _ resource: String) throws(NetlinkError) {
        if fd < 0, [EMFILE, ENFILE, ENOMEM].contains(errno) { throw .system(resource, errno: errno) }
    }

    private func stopWatching() {
        if let token { loop.unwatch(token) }
        token = nil
    }

    /// `/proc/PID/ns/net` (or `/proc/PID/task/TID/ns/net`): the process whose exit ends the namespace's name.
    private static func processID(inProcPath path: String) -> Int32? {
        let parts = path.split(separator: "/")
        guard parts.count >= 4, parts[0] == "proc", parts.last == "net", let pid = Int32(parts[1]) else { return nil }
        return pid
    }

    private static func discard(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
