import ReachabilityModel
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which namespace an nsfs file names: the device and inode of the file, as `ip netns identify` compares them.
package struct NamespaceIdentity: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64
}

/// Opening sockets inside another network namespace without moving the process.
///
/// A netlink socket stays bound to the namespace it was made in, so the engine makes its
/// sockets on a short-lived thread that has called `setns` and then exits; no other thread of
/// the process ever changes namespace.
package enum NamespaceEntry {
    /// The identity of the namespace's nsfs file.
    ///
    /// - Throws: `namespaceNotFound` when the file is missing, `namespaceNotEnterable` when it cannot be read.
    package static func identity(of namespace: NetworkNamespace) throws(ReachabilityError) -> NamespaceIdentity {
        if case .named(let name) = namespace, name.isEmpty || name.contains("/") || name == "." || name == ".." {
            throw .namespaceNotFound(path: namespace.path)
        }
        do {
            let info = try Syscalls.stat(namespace.path)
            return NamespaceIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        } catch {
            if error.errno == ENOENT || error.errno == ENOTDIR {
                throw .namespaceNotFound(path: namespace.path)
            }
            throw .namespaceNotEnterable(path: namespace.path, function: error.function, errno: error.errno)
        }
    }

    /// Runs `body` with the calling context inside `namespace`.
    ///
    /// When the calling thread is already in that namespace, `body` runs right here; otherwise on
    /// a new thread that enters the namespace with `setns(2)` first and is joined before returning.
    ///
    /// - Throws: `ReachabilityError` for a namespace that cannot be opened or entered, or for
    ///   the `NetlinkError` that `body` threw.
    package static func run<T>(in namespace: NetworkNamespace, _ body: () throws(NetlinkError) -> T) throws(ReachabilityError) -> T {
        let target = try identity(of: namespace)
        if let here = try? identity(of: .path("/proc/thread-self/ns/net")), here == target {
            do { return try body() } catch { throw error.reachabilityError }
        }
        let fd: Int32
        do {
            fd = try Syscalls.open(namespace.path, O_RDONLY)
        } catch {
            throw .namespaceNotEnterable(path: namespace.path, function: error.function, errno: error.errno)
        }
        defer { Syscalls.close(fd) }

        var outcome: Result<T, NetlinkError>?
        var entryFailure: Syscalls.Failure?
        try withoutActuallyEscaping(body) { (escapable) throws(ReachabilityError) in
            let work = NamespaceThreadWork(namespaceDescriptor: fd) {
                do throws(NetlinkError) { outcome = .success(try escapable()) } catch { outcome = .failure(error) }
            }
            let started = work.runOnNewThreadAndJoin()
            if started != 0 {
                throw .system(function: "pthread_create", errno: started)
            }
            entryFailure = work.entryFailure
        }
        if let entryFailure {
            throw .namespaceNotEnterable(path: namespace.path, function: entryFailure.function, errno: entryFailure.errno)
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw error.reachabilityError
        case nil: throw .system(function: "setns thread", errno: EINVAL)
        }
    }
}

/// The one-shot hand-off to the namespace thread: retained before `pthread_create`, taken back
/// exactly once by the thread. The creating thread joins before it reads `entryFailure`, so the
/// join orders every access; that is the invariant behind `@unchecked Sendable`.
private final class NamespaceThreadWork: @unchecked Sendable {
    let namespaceDescriptor: Int32
    let work: () -> Void
    var entryFailure: Syscalls.Failure?

    init(namespaceDescriptor: Int32, work: @escaping () -> Void) {
        self.namespaceDescriptor = namespaceDescriptor
        self.work = work
    }

    /// - Returns: 0, or the error number of `pthread_create`.
    func runOnNewThreadAndJoin() -> Int32 {
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(&thread, nil, { raw in
            let work = Unmanaged<NamespaceThreadWork>.fromOpaque(raw!).takeRetainedValue()
            do throws(Syscalls.Failure) {
                try Syscalls.setNetworkNamespace(work.namespaceDescriptor)
                work.work()
            } catch {
                work.entryFailure = error
            }
            return nil
        }, retained)
        if result != 0 {
            Unmanaged<NamespaceThreadWork>.fromOpaque(retained).release()
            return result
        }
        pthread_join(thread, nil)
        return 0
    }
}
