/// `wait --timeout`: how long to wait before giving up with status 1.
///
/// Finite by default, as the wait-online tools operators know: systemd-networkd-wait-online gives
/// up after 120 s, nm-online after 30 s. Ours is 60 s: long enough for DHCP on a slow link or a
/// container's network that arrives after its process starts, and shorter than systemd's default
/// start timeout (90 s), so that in `ExecStartPre=` our line saying why reaches the journal before
/// systemd kills the unit. `--timeout 0` or `--timeout forever` waits for ever.
enum WaitTimeout: Equatable, Sendable {
    /// Give up after this many seconds (greater than 0).
    case seconds(Double)
    /// Never give up.
    case forever

    /// The timeout without `--timeout`.
    static let defaultSeconds: Double = 60

    /// Parses the value of `--timeout`: a number of seconds greater than 0, or `0` or `forever`;
    /// nil for anything else (`invalidMessage` says what to give).
    init?(argument: String) {
        if argument.lowercased() == "forever" {
            self = .forever
        } else if let value = Double(argument), value.isFinite, value >= 0 {
            self = value == 0 ? .forever : .seconds(value)
        } else {
            return nil
        }
    }

    /// The usage error for a `--timeout` value that is neither seconds nor `forever`.
    static func invalidMessage(_ argument: String) -> String {
        "--timeout takes a number of seconds greater than 0, or 0 or 'forever' to wait for ever, not '\(argument)'"
    }

    /// The seconds to wait; nil for ever.
    var seconds: Double? {
        if case .seconds(let value) = self { value } else { nil }
    }
}
