import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// The check of a probe's CA file when the probe is made, so that a wrong path is an error naming
/// it, not a `limited` answer an hour later. Only read, never parsed here: the TLS library parses
/// it when the first `https://` probe runs (and a file it cannot use then makes that probe
/// `limited`, `TLS: CA file not usable`).
package enum ProbeCAFile {
    /// The most of the file read to look for a certificate: a bundle of roots is a few hundred KiB.
    package static let readLimit = 4 * 1024 * 1024
    /// How much is read at a time.
    package static let chunkBytes = 64 * 1024
    private static let marker = Array("-----BEGIN CERTIFICATE-----".utf8)

    package static func validate(_ path: String, for url: String, kind: ConnectivityProbe.Kind) throws(ReachabilityError) {
        func fail(_ reason: String) -> ReachabilityError { .invalidProbe(url, reason: reason) }
        guard kind == .https else { throw fail("a CA file needs an https:// probe (drop it, or probe an https:// URL)") }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw fail("the CA file '\(path)' cannot be read: \(ReachabilityError.errnoName(errno)) (give a readable PEM file)")
        }
        defer { close(fd) }
        // In chunks, never the whole limit at once: the captive-portal API's client makes a probe
        // (so this check) at every fetch, and a 4 MiB buffer there cost a millisecond of CPU and
        // page faults beside the engine's threads (BENCHMARKS.md, "HTTPS probes").
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        var window: [UInt8] = []  // the last chunk after the tail of the one before (a marker may straddle them)
        var total = 0
        var found = false
        while !found && total < readLimit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, readLimit - total)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            total += count
            window += chunk[..<count]
            found = holdsMarker(window)
            window = Array(window.suffix(marker.count - 1))
        }
        guard found else {
            throw fail("the CA file '\(path)' holds no PEM certificate ('-----BEGIN CERTIFICATE-----'): give the roots in PEM")
        }
    }

    private static func holdsMarker(_ bytes: [UInt8]) -> Bool {
        bytes.count >= marker.count && (0...(bytes.count - marker.count)).contains { start in
            bytes[start] == marker[0] && bytes[start..<(start + marker.count)].elementsEqual(marker)
        }
    }
}
