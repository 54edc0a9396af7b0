/// What a command was asked to monitor, as parsed from TARGET (and `--local`), before a monitor exists.
///
/// Strings are kept as the user typed them: the library validates addresses (so its error says
/// what is wrong), and records print the target as given.
enum TargetSpecification: Sendable, Hashable {
    /// No TARGET: the general path, like `NWPathMonitor()`.
    case general
    /// An IPv4 or IPv6 address, `0.0.0.0` or `::`, possibly with a `%scope`.
    case address(String)
    /// `--local ADDR` with TARGET (if any) as the remote end.
    case pair(local: String, remote: String?)
    /// Anything else: a host name.
    case host(String)

    /// Classifies a TARGET argument and an optional `--local` address.
    ///
    /// `*`, which records print for the general path, is accepted as a TARGET for it (and as
    /// the remote end of a pair, for any remote).
    ///
    /// A target with a `:` or `%`, or made only of digits and dots, is meant as an address (so
    /// `10.0.0.300` is reported as an invalid address, not looked up as a name); anything else is
    /// a host name. With `--local`, both ends must be addresses and the library checks them.
    init(target: String?, local: String? = nil) {
        if let local {
            self = .pair(local: local, remote: target == "*" ? nil : target)
        } else if let target, target != "*" {
            self = Self.looksLikeAddress(target) ? .address(target) : .host(target)
        } else {
            self = .general
        }
    }

    /// The `target` field of a record: as given, `*` for the general path, `LOCAL->REMOTE` for a pair.
    var recordTarget: String {
        switch self {
        case .general: "*"
        case .address(let address): address
        case .pair(let local, let remote): "\(local)->\(remote ?? "*")"
        case .host(let name): name
        }
    }

    /// Whether the text is meant as an address rather than a name.
    static func looksLikeAddress(_ text: String) -> Bool {
        // A `%scope` belongs to an address only when what precedes it looks like one: `name%v0` is a
        // host name, and the library then says which rule it breaks.
        let base = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
        return base.contains(":") || (!base.isEmpty && base.allSatisfy { $0 == "." || ("0"..."9").contains($0) })
    }
}
