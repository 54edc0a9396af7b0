import ReachabilityModel
import ReachabilitySystem
import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// Finds a link's `LinkTraits` through sysfs, or through ioctls on a socket made inside the
/// monitored namespace when sysfs cannot speak for it. Results are cached per ifindex and read
/// again only when the link's name or kind changes. The policy is the engine's, fixed for its life
/// (a monitor with another policy has another engine). Confined to the engine's loop.
package final class LinkInspector {
    private struct Key: Hashable {
        var name: String
        var kind: String?
    }

    /// An AF_INET datagram socket made in the namespace: the handle for SIOCGIWNAME and SIOCETHTOOL.
    private let controlSocket: Int32
    /// Whether `/sys` describes the monitored namespace (it is the process's own).
    private let sysfsSpeaksForNamespace: Bool
    let policy: InterfacePolicy
    private var cache: [Int: (Key, LinkTraits)] = [:]
    /// Per ifindex: the state a link's figures were last read in, and the class they made.
    var qualities: [Int: QualityRecord] = [:]

    /// Must run inside the namespace (the control socket belongs to the namespace it was made in).
    package init(namespaceIsProcessOwn: Bool, policy: InterfacePolicy) {
        controlSocket = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        sysfsSpeaksForNamespace = namespaceIsProcessOwn
        self.policy = policy
    }

    deinit {
        if controlSocket >= 0 { Syscalls.close(controlSocket) }
    }

    /// Fills in the traits of every link, from the cache where the link did not change, and measures
    /// its link quality again where its state changed (a Wi-Fi link's: every time).
    ///
    /// - Parameter addresses: the links' addresses: quality is measured only for links holding one
    ///   that reaches beyond the link (`measuredQuality`).
    package func inspect(_ links: inout [Int: LinkState], addresses: [InterfaceAddress]) {
        // Runs on every link or address change: links that went away are dropped from the caches
        // only when there are some, and the links are updated through their positions, so
        // neither table is copied.
        if cache.count > links.count || cache.keys.contains(where: { !links.keys.contains($0) }) {
            cache = cache.filter { links.keys.contains($0.key) }
        }
        if qualities.count > links.count || qualities.keys.contains(where: { !links.keys.contains($0) }) {
            qualities = qualities.filter { links.keys.contains($0.key) }
        }
        // A set pays only with many addresses (a host of containers); a scan of a few allocates nothing.
        var routable: Set<Int>?
        if addresses.count > 64 {
            routable = Set(addresses.lazy.filter(\.reachesBeyondLink).map(\.interfaceIndex))
        }
        var position = links.values.startIndex
        while position != links.values.endIndex {
            inspect(&links.values[position], routable: routable, addresses: addresses)
            links.values.formIndex(after: &position)
        }
    }

    /// Fills in the traits of the links touched by a change, and measures again the quality of
    /// every Wi-Fi link (its signal moves without a message of the kernel's); a touched link gone
    /// is forgotten. The other links keep the traits they hold.
    package func inspect(_ links: inout [Int: LinkState], touched: [LinkTables.Touch], addresses: [InterfaceAddress]) {
        for touch in touched where !links.keys.contains(touch.index) {
            cache[touch.index] = nil
            qualities[touch.index] = nil
        }
        for (index, entry) in cache where entry.1.isWiFi {
            guard !touched.contains(where: { $0.index == index }), links.keys.contains(index) else { continue }
            inspect(&links[index]!, routable: nil, addresses: addresses)
        }
        for touch in touched where links.keys.contains(touch.index) {
            // Only its addresses moved: its traits stand, and so does its quality unless it
            // started or stopped carrying traffic (a Wi-Fi link's is measured every time).
            if !touch.link, let record = qualities[touch.index], !links[touch.index]!.traits.isWiFi,
               record.state.carriesTraffic == Self.carriesTraffic(touch.index, addresses: addresses) {
                continue
            }
            inspect(&links[touch.index]!, routable: nil, addresses: addresses)
        }
    }

    /// Whether link `index` holds an address that reaches beyond it.
    private static func carriesTraffic(_ index: Int, addresses: [InterfaceAddress]) -> Bool {
        addresses.contains { $0.interfaceIndex == index && $0.reachesBeyondLink }
    }

    /// One link's traits, from the cache unless its name or kind changed, and its quality.
    private func inspect(_ link: inout LinkState, routable: Set<Int>?, addresses: [InterfaceAddress]) {
        let key = Key(name: link.name, kind: link.kind)
        var traits: LinkTraits
        if let (cachedKey, cached) = cache[link.index], cachedKey == key {
            traits = cached
        } else {
            var fresh = traitsFromDevice(link)
            fresh.isConfiguredExpensive = policy.expensiveInterfaceNames.contains(link.name)
            fresh.isConfiguredConstrained = policy.constrainedInterfaceNames.contains(link.name)
            fresh.isConfiguredUltraConstrained = policy.ultraConstrainedInterfaceNames.contains(link.name)
            cache[link.index] = (key, fresh)
            traits = fresh
        }
        let index = link.index
        let carriesTraffic = routable?.contains(index) ?? Self.carriesTraffic(index, addresses: addresses)
        traits.linkQuality = measuredQuality(of: link, traits: traits, carriesTraffic: carriesTraffic)
        if link.traits != traits { link.traits = traits }
    }

    /// Where the link's figures are read: the fixture root, `/sys` for the process's own namespace,
    /// else nil (ioctls made inside the namespace).
    var sysfsRootForMeasurement: String? { policy.fixtures.sysfs ?? (sysfsSpeaksForNamespace ? "/sys" : nil) }

    /// The link's speed and duplex by `ETHTOOL_GSET` on the namespace's control socket.
    func speedFromIoctl(_ name: String) -> LinkMeasurement {
        var speed: UInt32 = 0
        var duplex: UInt8 = 0
        guard controlSocket >= 0, CNetlink_linkSpeed(controlSocket, name, &speed, &duplex) == 0 else { return LinkMeasurement() }
        return LinkMeasurement(speedMbps: speed == 0 || speed == UInt32.max ? nil : Int(speed),
                               isFullDuplex: duplex == 1 ? true : duplex == 0 ? false : nil)
    }

    private func traitsFromDevice(_ link: LinkState) -> LinkTraits {
        // Virtual links (veth, bridge, tun, ...) have no device to ask, unless fixtures say otherwise.
        if (link.isLoopback || link.kind != nil) && policy.fixtures.sysfs == nil { return LinkTraits() }
        if let root = policy.fixtures.sysfs ?? (sysfsSpeaksForNamespace ? "/sys" : nil) {
            return Self.traitsFromSysfs(root: root, name: link.name)
        }
        return traitsFromIoctls(link.name)
    }

    private func traitsFromIoctls(_ name: String) -> LinkTraits {
        guard controlSocket >= 0 else { return LinkTraits() }
        var traits = LinkTraits()
        traits.isWireless = CNetlink_isWireless(controlSocket, name) == 1
        var buffer = [CChar](repeating: 0, count: 64)
        if CNetlink_driverName(controlSocket, name, &buffer, buffer.count) == 0 {
            traits.driver = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
        return traits
    }

    package static func traitsFromSysfs(root: String, name: String) -> LinkTraits {
        let directory = "\(root)/class/net/\(name)"
        var traits = LinkTraits()
        if let uevent = readSmallFile("\(directory)/uevent") {
            let fields = UEvent.parse(uevent)
            traits.deviceType = fields["DEVTYPE"]
        }
        traits.isWireless = exists("\(directory)/phy80211") || exists("\(directory)/wireless")
        if let link = readLink("\(directory)/device/driver") {
            traits.driver = String(link.split(separator: "/").last ?? Substring(link))
        } else if let uevent = readSmallFile("\(directory)/device/uevent") {
            traits.driver = UEvent.parse(uevent)["DRIVER"]
        }
        // A USB network function's device is the interface; the product string sits one level up.
        traits.usbProduct = readSmallFile("\(directory)/device/../product")
            .map { String($0.trimmingSuffixWhitespace()) }
        return traits
    }

    private static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Reads at most 64 KiB: sysfs attributes are small; a fixture that is not must not hurt.
    static func readSmallFile(_ path: String) -> String? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Syscalls.close(fd) }
        var bytes = [UInt8](repeating: 0, count: 65536)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + total, $0.count - total) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            total += count
        }
        return String(decoding: bytes[..<total], as: UTF8.self)
    }
}

private extension String {
    func trimmingSuffixWhitespace() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)].isWhitespace { end = index(before: end) }
        return self[..<end]
    }
}
