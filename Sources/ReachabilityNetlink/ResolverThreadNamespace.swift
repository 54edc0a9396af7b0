import ReachabilityModel
import ReachabilitySystem
import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// Puts a resolver thread, for good, into the namespace it resolves for.
///
/// - `.current`: nothing to do.
/// - any other namespace: `setns` into it, so the resolver's packets leave from inside it.
/// - a namespace made by `ip netns add NAME` with files under `/etc/netns/NAME/`: also a mount
///   namespace of the thread's own (`unshare(CLONE_NEWNS)`, allowed for one thread of a threaded
///   process), made a slave of `/`, with each of those files bound over its `/etc` namesake.
///   `prepare(generation:)` binds them again when the configuration generation moved, because a
///   file replaced by rename is not seen through the old bind.
package struct ResolverThreadNamespace {
    private let namespace: NetworkNamespace
    private var entered = false
    private var entryFailure: String?
    private var mountedGeneration: UInt64?
    private var boundTargets: [String] = []
    private var hasMountNamespace = false

    package init(namespace: NetworkNamespace) {
        self.namespace = namespace
    }

    /// Enters the namespace on first use and refreshes the binds. - Returns: nil, or why the thread cannot resolve.
    package mutating func prepare(generation: UInt64) -> String? {
        if !entered {
            entered = true
            entryFailure = enter()
        }
        if let entryFailure { return entryFailure }
        if case .named(let name) = namespace, mountedGeneration != generation {
            mountedGeneration = generation
            return bindConfiguration(of: name)
        }
        return nil
    }

    private func enter() -> String? {
        guard namespace != .current else { return nil }
        let here = try? NamespaceEntry.identity(of: .path("/proc/thread-self/ns/net"))
        let target: NamespaceIdentity
        do { target = try NamespaceEntry.identity(of: namespace) } catch { return error.description }
        if here == target { return nil }
        do {
            let fd = try Syscalls.open(namespace.path, O_RDONLY)
            defer { Syscalls.close(fd) }
            try Syscalls.setNetworkNamespace(fd)
        } catch {
            return ReachabilityError.namespaceNotEnterable(path: namespace.path, function: error.function, errno: error.errno).description
        }
        return nil
    }

    private mutating func bindConfiguration(of name: String) -> String? {
        let directory = "/etc/netns/\(name)"
        let entries = Self.entries(of: directory)
        for target in boundTargets.reversed() {
            _ = umount2(target, Int32(MNT_DETACH))
        }
        boundTargets.removeAll()
        guard !entries.isEmpty else { return nil }
        if !hasMountNamespace {
            guard CNetlink_unshareMountNamespace() == 0 else {
                return "unshare(CLONE_NEWNS): \(String(cString: strerror(errno))) (needed for \(directory))"
            }
            // A slave of /: mounts made here stay here, as with `ip netns exec`.
            guard mount("none", "/", nil, UInt(MS_SLAVE | MS_REC), nil) == 0 else {
                return "mount --make-rslave /: \(String(cString: strerror(errno)))"
            }
            hasMountNamespace = true
        }
        for entry in entries {
            let source = "\(directory)/\(entry)"
            let target = "/etc/\(entry)"
            if mount(source, target, "none", UInt(MS_BIND), nil) == 0 {
                boundTargets.append(target)
            }
        }
        return nil
    }

    private static func entries(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
