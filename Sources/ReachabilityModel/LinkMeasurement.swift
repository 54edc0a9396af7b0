import ReachabilitySystem
/// The link layer's figures for one interface, as `LinkInspector` reads them, and the
/// `LinkQuality` class they make (docs/semantics.md, "Link quality").
package struct LinkMeasurement: Sendable, Hashable {
    /// The negotiated speed in Mb/s (`/sys/class/net/IF/speed`, `ETHTOOL_GSET`); nil when the link
    /// reports none (no carrier, or a virtual link without a speed).
    package var speedMbps: Int?
    /// Full duplex (`duplex` is `full`); nil when unknown.
    package var isFullDuplex: Bool?
    /// A Wi-Fi station's signal in dBm (`wireless/level`, what `/proc/net/wireless` shows); nil for
    /// other links, and for a Wi-Fi device that is not associated.
    package var signalDBm: Int?

    package init(speedMbps: Int? = nil, isFullDuplex: Bool? = nil, signalDBm: Int? = nil) {
        self.speedMbps = speedMbps
        self.isFullDuplex = isFullDuplex
        self.signalDBm = signalDBm
    }

    /// Wi-Fi: at or above this signal, `good` (-67 dBm: what enterprise Wi-Fi is designed for where
    /// voice and video must work, the cell edge of Cisco's and Apple's deployment guides).
    package static let goodSignal = -67
    /// Wi-Fi: below this signal, `minimal` (-80 dBm: near the lowest data rates, where a station
    /// keeps its association but throughput and retries make most traffic slow).
    package static let minimalSignal = -80
    /// Wi-Fi: how far past a threshold a signal must go before the class changes, so that a signal
    /// that fluctuates by a few dB (as indoor signals do) around a threshold does not flap.
    package static let signalHysteresis = 4
    /// Wired: at or above this speed with full duplex, `good` (Fast Ethernet and better).
    package static let goodSpeedMbps = 100
    /// Wired: below this speed, `minimal` (below classic 10 Mb/s Ethernet).
    package static let minimalSpeedMbps = 10

    /// The class of these figures, for a link with or without carrier; `previous` is the link's
    /// last class, kept while a signal stays within `signalHysteresis` of the threshold it crossed.
    package func quality(hasCarrier: Bool, previous: LinkQuality = .unknown) -> LinkQuality {
        guard hasCarrier else { return .unknown }
        if let signalDBm { return Self.signalQuality(signalDBm, previous: previous) }
        guard let speedMbps, speedMbps > 0 else { return .unknown }
        let fullDuplex = isFullDuplex ?? true  // a link that reports a speed but no duplex: as full
        if speedMbps < Self.minimalSpeedMbps { return .minimal }
        if speedMbps >= Self.goodSpeedMbps { return fullDuplex ? .good : .moderate }
        return fullDuplex ? .moderate : .minimal
    }

    /// The class of a signal: the plain class, unless `previous` is a known class that the signal
    /// has not left by `signalHysteresis` dB.
    private static func signalQuality(_ signal: Int, previous: LinkQuality) -> LinkQuality {
        let plain = signalClass(signal, shift: 0)
        guard previous != .unknown, plain != previous else { return plain }
        // Moving up needs the thresholds raised by the margin, moving down lowered.
        let shifted = signalClass(signal, shift: rank(plain) > rank(previous) ? signalHysteresis : -signalHysteresis)
        return rank(plain) > rank(previous) ? max(shifted, previous) : min(shifted, previous)
    }

    private static func signalClass(_ signal: Int, shift: Int) -> LinkQuality {
        if signal >= goodSignal + shift { return .good }
        if signal >= minimalSignal + shift { return .moderate }
        return .minimal
    }

    private static func rank(_ quality: LinkQuality) -> Int {
        switch quality {
        case .unknown: 0
        case .minimal: 1
        case .moderate: 2
        case .good: 3
        }
    }

    private static func max(_ a: LinkQuality, _ b: LinkQuality) -> LinkQuality { rank(a) >= rank(b) ? a : b }
    private static func min(_ a: LinkQuality, _ b: LinkQuality) -> LinkQuality { rank(a) <= rank(b) ? a : b }
}
