import ReachabilityModel
import ReachabilitySystem

/// The link quality of each link (docs/semantics.md, "Link quality"): its figures, measured again
/// when the link's state changes, and their class with the hysteresis of `LinkMeasurement`.
extension LinkInspector {
    /// What a link's figures were read for, and the class they made.
    struct QualityRecord {
        /// The link's state when its figures were read.
        var state: QualityState
        var quality: LinkQuality
    }

    /// The parts of a link's state that a renegotiation of its link layer changes.
    struct QualityState: Equatable {
        var name: String
        var flags: LinkState.Flags
        var operationalState: LinkState.OperationalState
        /// Whether the link holds an address that reaches beyond it: only then are its figures read.
        var carriesTraffic: Bool
    }

    /// What a veth's driver reports, always.
    static let vethFigures = LinkMeasurement(speedMbps: 10_000, isFullDuplex: true)

    /// The link's class: its figures read again when its state changed since the last reading, and
    /// always for a Wi-Fi link (whose signal moves without a message of the kernel's); otherwise
    /// the last ones.
    ///
    /// Figures are read only for a link with carrier that holds an address reaching beyond it (one a
    /// path can use and `availableInterfaces` lists); any other reads `unknown`. Reading them takes
    /// the kernel's routing lock (sysfs `speed` spins on it, `ETHTOOL_GSET` waits for it), which a
    /// host making containers holds most of the time: measuring each new veth of a container cost
    /// the container churn about a quarter more CPU. A veth's driver reports fixed figures, which
    /// cannot be set (`veth_get_link_ksettings`: 10 Gb/s, full duplex), so a veth is not read at all.
    func measuredQuality(of link: LinkState, traits: LinkTraits, carriesTraffic: Bool) -> LinkQuality {
        let state = QualityState(name: link.name, flags: link.flags, operationalState: link.operationalState,
                                 carriesTraffic: carriesTraffic)
        let isWireless = traits.isWiFi
        let last = qualities[link.index]
        if let last, last.state == state, !isWireless { return last.quality }
        let fixed = link.kind == "veth" && policy.fixtures.sysfs == nil ? Self.vethFigures : nil
        let carries = link.hasCarrier && !link.isLoopback && carriesTraffic
        let measurement = carries ? fixed ?? measure(link.name, isWireless: isWireless) : LinkMeasurement()
        let quality = measurement.quality(hasCarrier: link.hasCarrier, previous: last?.quality ?? .unknown)
        qualities[link.index] = QualityRecord(state: state, quality: quality)
        return quality
    }

    /// Reads the figures: sysfs's `speed` and `duplex` (as `ethtool` shows them) or, for Wi-Fi, its
    /// `wireless/level`; in another namespace, `ETHTOOL_GSET` (a Wi-Fi link there has no figures).
    private func measure(_ name: String, isWireless: Bool) -> LinkMeasurement {
        guard let root = sysfsRootForMeasurement else {
            return isWireless ? LinkMeasurement() : speedFromIoctl(name)
        }
        let directory = "\(root)/class/net/\(name)"
        if isWireless {
            return LinkMeasurement(signalDBm: Self.readInteger("\(directory)/wireless/level").flatMap(Self.signalDBm))
        }
        let speed = Self.readInteger("\(directory)/speed").flatMap { $0 > 0 && $0 < Int(UInt32.max) ? $0 : nil }
        let duplex = Self.readSmallFile("\(directory)/duplex").map { $0.trimmingCharacters() }
        return LinkMeasurement(speedMbps: speed, isFullDuplex: duplex == "full" ? true : duplex == "half" ? false : nil)
    }

    /// A signal level in dBm from wext's figure: sysfs prints the 8-bit field as it is (201 for
    /// -55 dBm), `/proc/net/wireless` and fixtures may hold the signed value; 0 means no figure.
    static func signalDBm(_ level: Int) -> Int? {
        if level == 0 || level < -110 || level > 255 { return nil }
        return level > 0 ? level - 256 : level
    }

    /// An attribute that holds one integer; nil when missing or unreadable (a link without carrier
    /// answers EINVAL for its speed).
    private static func readInteger(_ path: String) -> Int? {
        readSmallFile(path).flatMap { Int($0.trimmingCharacters()) }
    }
}

private extension String {
    func trimmingCharacters() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
