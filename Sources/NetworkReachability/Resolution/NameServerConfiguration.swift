#if canImport(Glibc)
import Glibc
#endif

/// Whether a name server is configured for a namespace: `supportsDNS`.
///
/// For a named namespace `/etc/netns/NAME/resolv.conf` takes the place of `/etc/resolv.conf`
/// when it exists, as `ip netns exec` arranges. The file is read again only when its inode,
/// size or modification time changed, so the event path pays one `stat`.
struct NameServerConfiguration {
    private let candidates: [String]
    private var stamp: [Int] = []
    private(set) var hasNameServer = false

    init(namespace: NetworkNamespace) {
        if case .named(let name) = namespace {
            candidates = ["/etc/netns/\(name)/resolv.conf", "/etc/resolv.conf"]
        } else {
            candidates = ["/etc/resolv.conf"]
        }
    }

    /// Re-reads the file if it changed. - Returns: whether a name server is configured.
    mutating func refresh() -> Bool {
        for path in candidates {
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let newStamp = [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), path.hashValue]
            if newStamp != stamp {
                stamp = newStamp
                hasNameServer = Self.read(path)
            }
            return hasNameServer
        }
        stamp = []
        hasNameServer = false
        return false
    }

    private static func read(_ path: String) -> Bool {
        guard let file = fopen(path, "r") else { return false }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line).trimmingLeadingWhitespace()
            if text.hasPrefix("nameserver") && text.dropFirst("nameserver".count).contains(where: { !$0.isWhitespace }) {
                return true
            }
        }
        return false
    }
}

private extension String {
    func trimmingLeadingWhitespace() -> Substring { drop(while: { $0.isWhitespace }) }
}
