import NetworkReachabilityCore

/// `--json`: one object per line, with the keys in the order of docs/cli-notes.md, "The record".
///
/// Written with a `JSONWriter` as bytes into the printer's buffer (the output path of every
/// change: no tree of values, no strings, no allocation once the buffer has grown).
struct JSONRecordFormatter: RecordFormatter {
    /// Larger than a record with a few interfaces, so a line is rarely regrown.
    static let lineCapacity = 1024

    func format(_ record: Record) -> String {
        var line: [UInt8] = []
        line.reserveCapacity(Self.lineCapacity)
        write(record, into: &line)
        return String(decoding: line, as: UTF8.self)
    }

    func write(_ record: Record, into line: inout [UInt8]) {
        JSONWriter.line(into: &line, minimumCapacity: Self.lineCapacity) { json in
            Self.write(record, to: &json)
            json.newline()
        }
    }

    /// The record as a JSON object; `addresses` only for a host name.
    static func write(_ record: Record, to json: inout JSONWriter) {
        let path = record.path
        json.beginObject()
        json.key("time"); json.unescapedString { record.time.write(to: &$0) }
        json.key("target"); json.string(record.target)
        json.key("flags"); json.beginArray()
        for named in ReachabilityFlags.allNamed where path.flags.contains(named.flag) { json.string(named.name) }
        json.endArray()
        json.key("flagsRaw"); json.int(Int(path.flags.rawValue))
        json.key("status"); json.string(path.reachabilityStatus.description)
        json.key("path"); write(path, to: &json)
        if let addresses = record.addresses {
            json.key("addresses"); json.beginArray()
            for address in addresses { json.string(address) }
            json.endArray()
        }
        json.endObject()
    }

    /// The `path` object.
    static func write(_ path: NetworkPath, to json: inout JSONWriter) {
        json.beginObject()
        json.key("status"); json.string(path.status.description)
        json.key("unsatisfiedReason"); json.string(path.unsatisfiedReason?.description)
        json.key("interface")
        if let interface = path.interface { write(interface, to: &json) } else { json.null() }
        json.key("gateways"); json.beginArray()
        for gateway in path.gateways { json.address(gateway) }
        json.endArray()
        json.key("availableInterfaces"); json.beginArray()
        for interface in path.availableInterfaces { write(interface, to: &json) }
        json.endArray()
        json.key("isExpensive"); json.bool(path.isExpensive)
        json.key("isConstrained"); json.bool(path.isConstrained)
        json.key("linkQuality"); json.string(path.linkQuality.description)
        json.key("supportsIPv4"); json.bool(path.supportsIPv4)
        json.key("supportsIPv6"); json.bool(path.supportsIPv6)
        json.key("supportsDNS"); json.bool(path.supportsDNS)
        json.key("connectivity"); json.string(path.connectivity.description)
        json.key("portalURL"); json.string(path.portalURL)
        json.key("connectivityReason"); json.string(path.connectivityReason)
        json.key("captivePortalAPI"); json.string(path.captivePortalAPI)
        json.key("captivePortal")
        if let portal = path.captivePortal { write(portal, to: &json) } else { json.null() }
        json.endObject()
    }

    /// The captive-portal API's answer, every key present (null when the API left it out).
    static func write(_ portal: CaptivePortalStatus, to json: inout JSONWriter) {
        json.beginObject()
        json.key("captive"); json.bool(portal.captive)
        json.key("userPortalURL"); json.string(portal.userPortalURL)
        json.key("venueInfoURL"); json.string(portal.venueInfoURL)
        json.key("canExtendSession")
        if let extend = portal.canExtendSession { json.bool(extend) } else { json.null() }
        json.key("secondsRemaining")
        if let seconds = portal.secondsRemaining { json.int(Int(seconds)) } else { json.null() }
        json.key("bytesRemaining")
        if let bytes = portal.bytesRemaining { json.int(Int(bytes)) } else { json.null() }
        json.endObject()
    }

    /// `{"name":..,"index":..,"type":..}`.
    static func write(_ interface: NetworkInterface, to json: inout JSONWriter) {
        json.beginObject()
        json.key("name"); json.string(interface.name)
        json.key("index"); json.int(interface.index)
        json.key("type"); json.string(interface.type.description)
        json.key("linkQuality"); json.string(interface.linkQuality.description)
        json.endObject()
    }
}
