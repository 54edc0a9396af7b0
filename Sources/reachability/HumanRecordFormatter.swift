import NetworkReachabilityCore

/// One aligned line per record for a person: time, target, status, compact flags, interface, gateways.
///
/// ```
/// 2026-11-21T23:59:59.123456Z  8.8.8.8  reachableViaWiFi  -R -------  v0  10.9.0.2
/// ```
/// A missing interface or gateway prints as `-`. With `colour`, the status is green when
/// reachable, red when not, yellow when unknown, and the time is dim.
struct HumanRecordFormatter: RecordFormatter {
    /// The width of the target column: the longest target that will be printed.
    var targetWidth: Int
    /// Whether to add ANSI colours.
    var colour: Bool
    /// `--probe`: a column with the connectivity word (and the portal's URL) after the gateways.
    var showsConnectivity = false

    /// The widest status word, `reachableViaWiFi`.
    private static let statusWidth = 16
    /// The widest interface name (IFNAMSIZ without its NUL).
    private static let interfaceWidth = 15

    func format(_ record: Record) -> String {
        let path = record.path
        let status = path.reachabilityStatus
        let columns = [
            paint(record.time.description, Self.dim),
            Self.padded(record.target, to: targetWidth),
            paint(Self.padded(status.description, to: Self.statusWidth), Self.colourCode(of: status)),
            path.flags.description,
            Self.padded(path.interface?.name ?? "-", to: Self.interfaceWidth),
            path.gateways.isEmpty ? "-" : path.gateways.map(\.addressString).joined(separator: ","),
        ]
        var line = columns
        if showsConnectivity {
            line.append(path.connectivity.description + (path.connectivityReason.map { " (\($0))" } ?? "")
                        + (path.portalURL.map { " \($0)" } ?? ""))
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
