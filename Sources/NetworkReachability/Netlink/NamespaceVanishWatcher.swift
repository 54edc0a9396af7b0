import CNetlink
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Tells when a monitored namespace goes away for its users.
///
/// The engine's own sockets keep the kernel's namespace alive, so it never dies under us; what
/// goes away is its name: `ip netns del` unlinks `/run/netns/NAME`, and `/proc/PID/ns/net` ends
/// with its process. So: inotify on the file's directory (deletions and renames of that entry,
/// checked against the identity the engine opened), and for `/proc/PID/ns/net` a pidfd, readable
/// when the process exits. `.current` never goes away. Confined to the queue given at creation.
final class NamespaceVanishWatcher {
    private var sources: [DispatchSourceProtocol] = []

    /// - Parameter onVanish: runs once on `queue` when the namespace is gone.
    init?(namespace: NetworkNamespace, identity: NamespaceIdentity, queue: DispatchQueue, onVanish: @escaping () -> Void) {
        if namespace == .current { return nil }
        let path = namespace.path
        var fired = false
        let check = {
            guard !fired else { return }
            if (try? NamespaceEntry.identity(of: namespace)) != identity {
                fired = true
                onVanish()
            }
        }
        if let pid = Self.processID(inProcPath: path) {
            let fd = CNetlink_pidfdOpen(pid)
            if fd >= 0 {
                let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
                source.setEventHandler {
                    source.cancel()
                    guard !fired else { return }
                    fired = true
                    onVanish()
                }
                source.setCancelHandler { Syscalls.close(fd) }
                source.activate()
                sources.append(source)
            }
        } else if let slash = path.lastIndex(of: "/") {
            let directory = slash == path.startIndex ? "/" : String(path[..<slash])
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            if fd >= 0 {
                let mask = UInt32(IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT)
                _ = inotify_add_watch(fd, directory, mask)
                let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
                source.setEventHandler {
                    Self.discard(fd)
                    check()
                }
                source.setCancelHandler { Syscalls.close(fd) }
                source.activate()
                sources.append(source)
            }
        }
        // It may already be gone between the engine's open and this watch.
        dispatchPrecondition(condition: .onQueue(queue))
        check()
    }

    deinit {
        sources.forEach { $0.cancel() }
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
