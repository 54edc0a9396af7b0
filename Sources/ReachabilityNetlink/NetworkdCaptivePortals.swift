import ReachabilityModel
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// The captive-portal API URIs systemd-networkd recorded for its links: the `CAPTIVE_PORTAL=`
/// line of `/run/systemd/netif/links/IFINDEX`, which networkd fills from RA option 37, DHCPv4
/// option 114 and DHCPv6 option 103 (RFC 8910) on hosts where it handles RAs and DHCP (and has
/// turned the kernel's own RA handling off, so the engine's socket hears no option 37 there).
///
/// Read for the process's own namespace only (networkd configures that one), or under a test
/// root; read again whenever the directory changes (inotify, in the engine's poll loop). The
/// URIs pass the same checks as an RA's (`NDUserOptionParser.uri`).
package final class NetworkdCaptivePortals: @unchecked Sendable {  // used on the engine's queue only
    package static let defaultRoot = "/run/systemd/netif/links"
    /// A link state file is a few hundred bytes; more is not networkd's.
    private static let fileLimit = 64 * 1024

    package let root: String
    private var byInterface: [Int: String] = [:]
    private var token: WatchToken?
    private weak var waiter: (any DescriptorWatching)?

    package init(root: String) {
        self.root = root
        _ = reload()
    }

    deinit {
        if let token { waiter?.unwatch(token) }
    }

    /// Puts each networkd link's URI on the link when it is up with carrier (networkd's word
    /// stands over an RA the engine heard: it saw DHCP too).
    package func apply(to links: inout [Int: LinkState]) {
        for (index, uri) in byInterface {
            guard let link = links[index], link.isUp, link.hasCarrier else { continue }
            links[index]?.captivePortalAPI = uri
        }
    }

    /// Follows the directory; `onChange` runs on the waiter's queue when a URI changed. Without
    /// the directory (no networkd) or inotify, nothing is followed.
    package func watch(with waiter: any DescriptorWatching, onChange: @escaping @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
        guard inotify_add_watch(descriptor, root, mask) >= 0 else {
            Syscalls.close(descriptor)
            return
        }
        self.waiter = waiter
        // Weak: the handler may be on its way to the queue while the engine lets the sockets go.
        token = waiter.watch(descriptor) { [weak self] in
            guard let self, self.token != nil else { return }
            Self.drain(descriptor)
            if self.reload() { onChange() }
        }
    }

    /// Reads every `IFINDEX` file again. - Returns: whether a URI changed.
    package func reload() -> Bool {
        var found: [Int: String] = [:]
        if let directory = opendir(root) {
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard let index = Int(name), index > 0, let uri = Self.captivePortal(in: root + "/" + name) else { continue }
                found[index] = uri
            }
        }
        defer { byInterface = found }
        return found != byInterface
    }

    /// The validated `CAPTIVE_PORTAL=` value of one link state file, if any.
    package static func captivePortal(in path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: fileLimit)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return captivePortal(inText: bytes[..<count])
    }

    /// The `CAPTIVE_PORTAL=` line's value in a link state file's text.
    package static func captivePortal(inText bytes: ArraySlice<UInt8>) -> String? {
        let key = Array("CAPTIVE_PORTAL=".utf8)
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: key) {
            return Array(line.dropFirst(key.count)).withUnsafeBytes { NDUserOptionParser.uri($0) }
        }
        return nil
    }

    private static func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(descriptor, &buffer, buffer.count) > 0 {}
    }
}
