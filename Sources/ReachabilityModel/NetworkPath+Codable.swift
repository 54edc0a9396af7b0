import ReachabilitySystem
// Codable with the keys of the `path` object of `reachability --json` records, so a service logs
// or ships paths in the shape scripts already parse; docs/cli-notes.md, "The library's JSON of a
// path", lists the keys a path adds. The command writes its records itself; these conformances
// are for library users.

extension NetworkPath: Codable {
    private enum CodingKeys: String, CodingKey {
        case status, unsatisfiedReason, interface, gateways, availableInterfaces, isExpensive, isConstrained, linkQuality
        case supportsIPv4, supportsIPv6, supportsDNS
        case connectivity, portalURL, connectivityReason, captivePortalAPI, captivePortal
        // Beside a record's path, not in it: a path carries them itself.
        case flags, addresses, addressesAreStale
    }

    /// Decodes a path as `encode(to:)` writes it, or a record's `path` object, whose flags sit
    /// beside it in the record: then `flags` is empty (decode the record's `flags` for them).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let gatewayTexts = try container.decode([String].self, forKey: .gateways)
        self.init(
            status: try container.decode(Status.self, forKey: .status),
            unsatisfiedReason: try container.decodeIfPresent(UnsatisfiedReason.self, forKey: .unsatisfiedReason),
            flags: try container.decodeIfPresent(ReachabilityFlags.self, forKey: .flags) ?? [],
            interface: try container.decodeIfPresent(NetworkInterface.self, forKey: .interface),
            availableInterfaces: try container.decode([NetworkInterface].self, forKey: .availableInterfaces),
            gateways: try gatewayTexts.map { text throws in try IPAddress(text) },
            isExpensive: try container.decode(Bool.self, forKey: .isExpensive),
            isConstrained: try container.decode(Bool.self, forKey: .isConstrained),
            supportsIPv4: try container.decode(Bool.self, forKey: .supportsIPv4),
            supportsIPv6: try container.decode(Bool.self, forKey: .supportsIPv6),
            supportsDNS: try container.decode(Bool.self, forKey: .supportsDNS)
        )
        resolvedAddresses = try (container.decodeIfPresent([String].self, forKey: .addresses) ?? [])
            .map { text throws in try IPAddress(text) }
        resolvedAddressesAreStale = try container.decodeIfPresent(Bool.self, forKey: .addressesAreStale) ?? false
        connectivity = try container.decodeIfPresent(Connectivity.self, forKey: .connectivity) ?? .unknown
        portalURL = try container.decodeIfPresent(String.self, forKey: .portalURL)
        connectivityReason = try container.decodeIfPresent(String.self, forKey: .connectivityReason)
        captivePortalAPI = try container.decodeIfPresent(String.self, forKey: .captivePortalAPI)
        captivePortal = try container.decodeIfPresent(CaptivePortalStatus.self, forKey: .captivePortal)
    }

    /// Encodes the keys of a record's `path` object (`unsatisfiedReason` and `interface` as null
    /// when absent), then `flags` (their names), and for a host name `addresses` (and
    /// `addressesAreStale` when true).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(unsatisfiedReason, forKey: .unsatisfiedReason)
        try container.encode(interface, forKey: .interface)
        // As the command prints them: gateways without a scope, resolved addresses as given.
        try container.encode(gateways.map(\.addressString), forKey: .gateways)
        try container.encode(availableInterfaces, forKey: .availableInterfaces)
        try container.encode(isExpensive, forKey: .isExpensive)
        try container.encode(isConstrained, forKey: .isConstrained)
        try container.encode(linkQuality, forKey: .linkQuality)
        try container.encode(supportsIPv4, forKey: .supportsIPv4)
        try container.encode(supportsIPv6, forKey: .supportsIPv6)
        try container.encode(supportsDNS, forKey: .supportsDNS)
        try container.encode(connectivity, forKey: .connectivity)
        try container.encode(portalURL, forKey: .portalURL)
        try container.encode(connectivityReason, forKey: .connectivityReason)
        try container.encode(captivePortalAPI, forKey: .captivePortalAPI)
        try container.encode(captivePortal, forKey: .captivePortal)
        try container.encode(flags, forKey: .flags)
        if !resolvedAddresses.isEmpty { try container.encode(resolvedAddresses.map(\.description), forKey: .addresses) }
        if resolvedAddressesAreStale { try container.encode(true, forKey: .addressesAreStale) }
    }
}

extension NetworkPath.Status: Codable {
    /// Decodes `satisfied`, `unsatisfied` or `requiresConnection`.
    public init(from decoder: any Decoder) throws {
        self = try decodeCaseName(decoder, among: [.satisfied, .unsatisfied, .requiresConnection], what: "path status")
    }

    /// Encodes the case name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension NetworkPath.UnsatisfiedReason: Codable {
    /// Every reason, in the order of the enum.
    package static let allReasons: [Self] = [
        .noRoute, .unreachableRoute, .prohibitedRoute, .blackholeRoute, .noCarrier, .interfaceDown,
        .localAddressUnavailable, .requiredInterfaceUnavailable, .nameNotResolved, .noDNSServer, .namespaceUnavailable,
    ]

    /// Decodes the camelCase word a record's `unsatisfiedReason` holds; `linkDown`, the word for
    /// `noCarrier` before 0.2.0, too, so records logged by an earlier release still decode.
    public init(from decoder: any Decoder) throws {
        if let legacy = try? decoder.singleValueContainer().decode(String.self), legacy == "linkDown" {
            self = .noCarrier
            return
        }
        self = try decodeCaseName(decoder, among: Self.allReasons, what: "unsatisfied reason")
    }

    /// Encodes the camelCase word.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension NetworkInterface: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, index, type, isExpensive, isConstrained, kind, isUltraConstrained, linkQuality
    }

    /// Decodes `{"name":..,"index":..,"type":..}`; `linkQuality`, `isExpensive`, `isConstrained`,
    /// `kind` and `isUltraConstrained` when present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            index: try container.decode(Int.self, forKey: .index),
            type: try container.decode(InterfaceType.self, forKey: .type),
            isExpensive: try container.decodeIfPresent(Bool.self, forKey: .isExpensive) ?? false,
            isConstrained: try container.decodeIfPresent(Bool.self, forKey: .isConstrained) ?? false,
            kind: try container.decodeIfPresent(String.self, forKey: .kind),
            isUltraConstrained: try container.decodeIfPresent(Bool.self, forKey: .isUltraConstrained) ?? false,
            linkQuality: try container.decodeIfPresent(LinkQuality.self, forKey: .linkQuality) ?? .unknown
        )
    }

    /// Encodes a record's `{"name":..,"index":..,"type":..,"linkQuality":..}`, plus `isExpensive`,
    /// `isConstrained` and `isUltraConstrained` only when true and `kind` when known, which a
    /// record leaves out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(index, forKey: .index)
        try container.encode(type, forKey: .type)
        if isExpensive { try container.encode(true, forKey: .isExpensive) }
        if isConstrained { try container.encode(true, forKey: .isConstrained) }
        try container.encodeIfPresent(kind, forKey: .kind)
        if isUltraConstrained { try container.encode(true, forKey: .isUltraConstrained) }
        try container.encode(linkQuality, forKey: .linkQuality)
    }
}

extension LinkQuality: Codable {
    /// Decodes `unknown`, `minimal`, `moderate` or `good`.
    public init(from decoder: any Decoder) throws {
        self = try decodeCaseName(decoder, among: Self.allCases, what: "link quality")
    }

    /// Encodes the case name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension NetworkInterface.InterfaceType: Codable {
    /// Decodes `other`, `wifi`, `cellular`, `wiredEthernet` or `loopback`.
    public init(from decoder: any Decoder) throws {
        self = try decodeCaseName(decoder, among: Self.allCases, what: "interface type")
    }

    /// Encodes the case name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The case of `all` whose description is the decoded string; an error listing them otherwise.
package func decodeCaseName<Value: CustomStringConvertible>(_ decoder: any Decoder, among all: [Value], what: String) throws -> Value {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    guard let value = all.first(where: { $0.description == name }) else {
        throw DecodingError.dataCorruptedError(
            in: container, debugDescription: "'\(name)' is not a \(what); expected one of \(all.map(\.description))")
    }
    return value
}
