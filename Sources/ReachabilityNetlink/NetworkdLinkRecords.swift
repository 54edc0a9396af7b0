import ReachabilityModel
import ReachabilitySystem
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// What systemd-networkd recorded for its links in `/run/systemd/netif/links/IFINDEX`: the
/// `CAPTIVE_PORTAL=` line, which networkd fills from RA option 37, DHCPv4 option 114 and DHCPv6
/// option 103 (RFC 8910) on hosts where it handles RAs and DHCP (and has turned the kernel's own
/// RA handling off, so the engine's socket hears no option 37 there), and the `DNS=` line, the
/// name servers of that link (static and learnt), which systemd-resolved forwards the link's
/// queries to.
///
/// Read for the process's own namespace only (networkd configures that one), or under a test
/// root; read again when the engine's configuration watcher reports the directory changed. The
/// URIs pass the same checks as an RA's (`NDUserOptionParser.refusal(ofURI:)`) and the same
/// pacing (`CaptivePortalAnnouncements`): a file networkd rewrites in a storm shows at most four
/// URIs a second, the last one winning. Used on the engine's loop only.
package final class NetworkdLinkRecords {
    /// A link state file is a few hundred bytes; more is not networkd's.
    private static let fileLimit = 64 * 1024

    /// What one `reload` found changed.
    package struct Changes {
        /// A link's shown captive-portal URI changed.
        package var captivePortals = false
        /// A link's `DNS=` servers changed.
        package var nameServers = false
        /// `CAPTIVE_PORTAL=` values refused since the last reload (each new value once).
        package var refusals: [CaptivePortalRefusal] = []
    }

    package let root: String
    /// Each link's `CAPTIVE_PORTAL=` value as the file holds it (raw, before any check).
    private var recordedPortals: [Int: [UInt8]] = [:]
    /// The URIs shown, paced as an RA's.
    private let pacing = CaptivePortalAnnouncements()
    /// Each link's `DNS=` servers, zones dropped (resolved's file lists them without).
    package private(set) var nameServersByLink: [Int: Set<IPAddress>] = [:]

    package init(root: String) {
        self.root = root
        _ = reload()
    }

    /// Puts each networkd link's URI on the link when it is up with carrier (networkd's word
    /// stands over an RA the engine heard: it saw DHCP too).
    package func apply(to links: inout [Int: LinkState]) {
        for index in recordedPortals.keys {
            guard let link = links[index], link.isUp, link.hasCarrier, let uri = pacing.shownURI(on: index) else { continue }
            links[index]?.captivePortalAPI = uri
        }
    }

    /// Reads every `IFINDEX` file again, at `now` (`DispatchTime`'s nanoseconds).
    package func reload(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Changes {
        var portals: [Int: [UInt8]] = [:]
        var servers: [Int: Set<IPAddress>] = [:]
        if let directory = opendir(root) {
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard let index = Int(name), index > 0, let text = Self.contents(of: root + "/" + name) else { continue }
                if let portal = Self.value(of: "CAPTIVE_PORTAL", in: text) { portals[index] = Array(portal) }
                if let dns = Self.value(of: "DNS", in: text) { servers[index] = Self.nameServers(inDNSLine: dns) }
            }
        }
        var changes = Changes()
        for index in Set(portals.keys).union(recordedPortals.keys) where portals[index] != recordedPortals[index] {
            let reading = Self.reading(portals[index], on: index)
            if case .refused(let refusal) = reading { changes.refusals.append(refusal) }
            // A refused value leaves the link without a URI, as a removed line does.
            let noted = pacing.note(reading.refusedAsUnrestricted, now: now)
            changes.captivePortals = changes.captivePortals || noted.changed
        }
        recordedPortals = portals
        changes.nameServers = servers != nameServersByLink
        nameServersByLink = servers
        return changes
    }

    /// When a held URI is due (`CaptivePortalAnnouncements.heldChangeDue`).
    package func heldChangeDue() -> UInt64? { pacing.heldChangeDue() }

    /// Shows the held URIs whose time has come. - Returns: whether a link's URI changed.
    package func releaseHeld(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool { pacing.releaseHeld(now: now) }

    /// A file's `CAPTIVE_PORTAL=` value as an announcement of link `index`: nil (no line) is the
    /// unrestricted URN's removal.
    private static func reading(_ value: [UInt8]?, on index: Int) -> NDUserOptionParser.Reading {
        guard let value else { return .announcement(.unrestricted(interfaceIndex: index)) }
        return value.withUnsafeBytes { bytes in
            if let reason = NDUserOptionParser.refusal(ofURI: bytes) {
                return .refused(CaptivePortalRefusal(interfaceIndex: index, reason: reason, value: bytes))
            }
            let uri = String(decoding: bytes, as: UTF8.self)
            return .announcement(uri == NDUserOptionParser.unrestricted ? .unrestricted(interfaceIndex: index)
                                 : .api(interfaceIndex: index, uri: uri))
        }
    }

    private static func contents(of path: String) -> ArraySlice<UInt8>? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: fileLimit)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return count > 0 ? bytes[..<count] : nil
    }

    /// The value of the `KEY=` line in a link state file's text.
    package static func value(of key: String, in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let prefix = Array((key + "=").utf8)
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: prefix) {
            return line.dropFirst(prefix.count)
        }
        return nil
    }

    /// The validated `CAPTIVE_PORTAL=` URI in a link state file's text.
    package static func captivePortal(inText bytes: ArraySlice<UInt8>) -> String? {
        guard let value = value(of: "CAPTIVE_PORTAL", in: bytes) else { return nil }
        return Array(value).withUnsafeBytes { NDUserOptionParser.uri($0) }
    }

    /// The servers of a `DNS=` line: space-separated, each an address, perhaps with networkd's
    /// decorations (`[2001:db8::1]:53`, `192.0.2.1:53`, `fe80::1%2`, `192.0.2.1#dns.example`),
    /// which resolved's list of servers does not carry. Entries that do not parse are skipped.
    package static func nameServers(inDNSLine bytes: ArraySlice<UInt8>) -> Set<IPAddress> {
        var servers: Set<IPAddress> = []
        for field in bytes.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
            var text = Substring(String(decoding: field, as: UTF8.self))
            if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
            if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
                text = text[text.index(after: text.startIndex)..<close]
            } else if text.filter({ $0 == ":" }).count == 1 {
                text = text[..<text.firstIndex(of: ":")!]  // an IPv4 address with a port
            }
            if let percent = text.firstIndex(of: "%") { text = text[..<percent] }
            if let address = try? IPAddress(String(text)) { servers.insert(address) }
        }
        return servers
    }
}

extension NDUserOptionParser.Reading {
    /// A refusal read as the removal of the link's URI; the rest as they are.
    fileprivate var refusedAsUnrestricted: NDUserOptionParser.Reading {
        guard case .refused(let refusal) = self else { return self }
        return .announcement(.unrestricted(interfaceIndex: refusal.interfaceIndex))
    }
}
