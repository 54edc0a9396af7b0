import NetworkReachability

/// `--json`: one object per line, with the keys in the order of the contract in `cli.md`.
struct JSONRecordFormatter: RecordFormatter {
    func format(_ record: Record) -> String {
        Self.value(of: record).serialized + "\n"
    }

    /// The record as a JSON object; `addresses` only for a host name.
    static func value(of record: Record) -> JSONValue {
        let path = record.path
        var members: [(key: String, value: JSONValue)] = [
            ("time", .string(record.time.description)),
            ("target", .string(record.target)),
            ("flags", .array(path.flags.names.map { .string($0) })),
            ("flagsRaw", .int(Int(path.flags.rawValue))),
            ("status", .string(path.reachabilityStatus.description)),
            ("path", value(of: path)),
        ]
        if let addresses = record.addresses {
            members.append(("addresses", .array(addresses.map { .string($0) })))
        }
        return .object(members)
    }

    /// The `path` object.
    static func value(of path: NetworkPath) -> JSONValue {
        .object([
            ("status", .string(path.status.description)),
            ("unsatisfiedReason", .string(path.unsatisfiedReason?.description)),
            ("interface", path.interface.map(value(of:)) ?? .null),
            ("gateways", .array(path.gateways.map { .string($0.addressString) })),
            ("availableInterfaces", .array(path.availableInterfaces.map(value(of:)))),
            ("isExpensive", .bool(path.isExpensive)),
            ("isConstrained", .bool(path.isConstrained)),
            ("supportsIPv4", .bool(path.supportsIPv4)),
            ("supportsIPv6", .bool(path.supportsIPv6)),
            ("supportsDNS", .bool(path.supportsDNS)),
            ("connectivity", .string(path.connectivity.description)),
            ("portalURL", .string(path.portalURL)),
        ])
    }

    /// `{"name":..,"index":..,"type":..}`.
    static func value(of interface: NetworkInterface) -> JSONValue {
        .object([
            ("name", .string(interface.name)),
            ("index", .int(interface.index)),
            ("type", .string(interface.type.description)),
        ])
    }
}
