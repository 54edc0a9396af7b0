import NetworkReachabilityCore

/// One state of one target, as the command prints it.
struct Record: Sendable {
    /// When the state was computed or received.
    var time: Timestamp
    /// The target as given; `*` for the general path.
    var target: String
    /// The state.
    var path: NetworkPath
    /// For a host name, the addresses it resolved to in the resolver's order; nil for other targets.
    var addresses: [String]?
}

/// Turns a record into the text written for it, newline included.
protocol RecordFormatter: Sendable {
    func format(_ record: Record) -> String
    /// Replaces `line`'s contents with the record's text, newline included, keeping its capacity.
    func write(_ record: Record, into line: inout [UInt8])
}

extension RecordFormatter {
    func write(_ record: Record, into line: inout [UInt8]) {
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: format(record).utf8)
    }
}

/// The formatter the options ask for.
///
/// - Parameters:
///   - json: `--json`: one JSON object per line.
///   - targets: the record targets that will be printed, so human columns line up.
///   - probing: `--probe` was given: human lines show the connectivity word.
func makeRecordFormatter(json: Bool, targets: [String], probing: Bool = false) -> any RecordFormatter {
    if json { return JSONRecordFormatter() }
    return HumanRecordFormatter(targetWidth: targets.map(\.count).max() ?? 1, colour: StandardStreams.wantsColour,
                                showsConnectivity: probing)
}
