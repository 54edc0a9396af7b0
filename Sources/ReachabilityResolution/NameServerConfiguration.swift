import ReachabilityModel
import ReachabilityNetlink
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// Whether a name server is configured for a namespace: `supportsDNS`.
///
/// For a named namespace `/etc/netns/NAME/resolv.conf` takes the place of `/etc/resolv.conf`
/// when it exists, as `ip netns exec` arranges. The file is read again only when its inode,
/// size or modification time changed, so the event path pays one `stat`.
package struct NameServerConfiguration {
    private let candidates: [String]
    private var stamp: [Int] = []
    package private(set) var hasNameServer = false
    /// The file and errno of the last read that failed for want of a resource (EMFILE, ENFILE,
    /// ENOMEM): the answer is then unknown, not "no name server", and the file is read again next time.
    package private(set) var readFailure: (path: String, errno: Int32)?

    package init(namespace: NetworkNamespace) {
        if case .named(let name) = namespace {
            candidates = ["/etc/netns/\(name)/resolv.conf", "/etc/resolv.conf"]
        } else {
            candidates = ["/etc/resolv.conf"]
        }
    }

    /// Re-reads the file if it changed. - Returns: whether a name server is configured.
    package mutating func refresh() -> Bool {
        for path in candidates {
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let newStamp = [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), path.hashValue]
            if newStamp != stamp {
                switch Self.read(path) {
                case .success(let found):
                    stamp = newStamp
                    hasNameServer = found
                    readFailure = nil
                case .failure(let code):
                    readFailure = (path, code.errno)
                }
            }
            return hasNameServer
        }
        stamp = []
        hasNameServer = false
        return false
    }

    private struct ResourceShortage: Error { var errno: Int32 }

    private static func read(_ path: String) -> Result<Bool, ResourceShortage> {
        guard let file = fopen(path, "r") else {
            return [EMFILE, ENFILE, ENOMEM].contains(errno) ? .failure(ResourceShortage(errno: errno)) : .success(false)
        }
        defer { fclose(file) }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        // resolv.conf is small; 1 MiB is far past any real one and bounds a hostile file.
        while text.utf8.count < 1 << 20, fgets(&buffer, Int32(buffer.count), file) != nil {
            text += buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
        return .success(hasNameServer(inResolvConf: text))
    }

    /// Whether resolv.conf text names at least one server: a `nameserver` line with an argument
    /// (comments with `#` or `;` ignored), as glibc's resolver reads it.
    package static func hasNameServer(inResolvConf text: String) -> Bool {
        for rawLine in text.split(whereSeparator: { $0 == "\n" }) {
            let line = rawLine.drop(while: { $0 == " " || $0 == "\t" })
            guard line.hasPrefix("nameserver") else { continue }
            let rest = line.dropFirst("nameserver".count)
            guard let first = rest.first, first == " " || first == "\t" else { continue }
            let argument = rest.drop(while: { $0 == " " || $0 == "\t" })
            if let start = argument.first, start != "#", start != ";", !start.isWhitespace { return true }
        }
        return false
    }
}
