import ReachabilitySystem
// Codable in the shapes of `reachability --json` (docs/cli-notes.md), so a service logs or ships flags and
// statuses as scripts already parse them. Codable is the standard library's: no Foundation here.

extension ReachabilityFlags: @retroactive Codable {
    /// Decodes the names of the set flags (`["reachable","isDirect"]`, a record's `flags`), or
    /// the number with Apple's bit values (a record's `flagsRaw`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let raw = try? container.decode(UInt32.self) {
            self.init(rawValue: raw)
            return
        }
        var flags: ReachabilityFlags = []
        for name in try container.decode([String].self) {
            guard let named = Self.allNamed.first(where: { $0.name == name }) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(name)' is not a flag; expected one of \(Self.allNamed.map(\.name))")
            }
            flags.insert(named.flag)
        }
        self = flags
    }

    /// Encodes the names of the set flags, in bit order: `["reachable","isDirect"]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(names)
    }
}

extension ReachabilityStatus: Codable {
    /// Decodes the case name a record's `status` holds (`notReachable`, ...), or AFNetworking's number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let raw = try? container.decode(Int.self), let status = ReachabilityStatus(rawValue: raw) {
            self = status
            return
        }
        self = try decodeCaseName(decoder, among: [.unknown, .notReachable, .reachableViaWWAN, .reachableViaWiFi], what: "status")
    }

    /// Encodes the case name: `reachableViaWiFi`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
