import NetworkReachabilityCore

/// One aligned line per record for a person: time, target, state in a word, compact flags,
/// interface and its kind, gateways, then (with a probe) connectivity and, when not reachable, why.
///
/// ```
/// 2026-11-21T23:59:59.123456Z  8.8.8.8     reachable    -R -------  v0  wiredEthernet  10.9.0.2
/// 2026-11-21T23:59:59.123456Z  db.invalid  unreachable  -- -------  -   -              -         name not resolved
/// ```
/// Every column before the connectivity and the reason is one word (`-` when empty; the flags
/// are two), so `awk` can pick them; those two are free text at the end. The JSON keeps
/// AFNetworking's status names (`reachableViaWiFi`), which read as a claim about Wi-Fi on a wired
/// link. With `colour`, the state is green when reachable, red when not, yellow when unknown, and
/// the time is dim.
struct HumanRecordFormatter: RecordFormatter {
    /// The width of the target column: the longest target that will be printed.
    var targetWidth: Int
    /// Whether to add ANSI colours.
    var colour: Bool
    /// `--probe`: a column with the connectivity word (and the portal's URL) after the gateways.
    var showsConnectivity = false

    /// The widest state word, `unreachable`.
    private static let stateWidth = 11
    /// The widest interface name (IFNAMSIZ without its NUL).
    private static let interfaceWidth = 15
    /// The widest interface kind, `wiredEthernet`.
    private static let kindWidth = 13

    func format(_ record: Record) -> String {
        let path = record.path
        let status = path.reachabilityStatus
        let columns = [
            paint(record.time.description, Self.dim),
            Self.padded(record.target, to: targetWidth),
            paint(Self.padded(PathWords.state(of: path), to: Self.stateWidth), Self.colourCode(of: status)),
            path.flags.description,
            Self.padded(path.interface?.name ?? "-", to: Self.interfaceWidth),
            Self.padded(path.interface.map { $0.type.description } ?? "-", to: Self.kindWidth),
            path.gateways.isEmpty ? "-" : path.gateways.map(\.addressString).joined(separator: ","),
        ]
        var line = columns
        if showsConnectivity {
            line.append(PathWords.connectivity(of: path) + (path.portalURL.map { " \($0)" } ?? ""))
        }
        if let why = PathWords.whyNot(path) {
            line.append(why)
        }
        return line.joined(separator: "  ") + "\n"
    }

    private static let dim = "2"

    /// The SGR code of a status: green, red or yellow.
    private static func colourCode(of status: ReachabilityStatus) -> String {
        switch status {
        case .reachableViaWiFi, .reachableViaWWAN: "32"
        case .notReachable: "31"
        case .unknown: "33"
        }
    }

    /// `text` in the colour `code`, when colours are on.
    private func paint(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// `text` with spaces after it up to `width` characters.
    private static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
