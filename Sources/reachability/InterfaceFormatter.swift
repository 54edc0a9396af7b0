/// Turns the interface list into the text `reachability interfaces` writes.
protocol InterfaceFormatter: Sendable {
    /// All of the output, newlines included.
    func format(_ rows: [InterfaceRow]) -> String
}

/// `--json`: one object per interface per line, as the records of `check` and `watch` are
/// (`jq -s` makes an array of them).
///
/// ```json
/// {"index":2,"name":"v0","type":"wiredEthernet","flags":["BROADCAST","MULTICAST","UP","RUNNING","LOWER_UP"],"operstate":"UP","carrier":true,"addresses":["10.9.0.1/24"],"isExpensive":false,"isConstrained":false,"linkQuality":"good"}
/// ```
struct InterfaceJSONFormatter: InterfaceFormatter {
    func format(_ rows: [InterfaceRow]) -> String {
        rows.map { Self.value(of: $0).serialized + "\n" }.joined()
    }

    static func value(of row: InterfaceRow) -> JSONValue {
        .object([
            ("index", .int(row.index)),
            ("name", .string(row.name)),
            ("type", .string(row.type.description)),
            ("flags", .array(row.flags.map { .string($0) })),
            ("operstate", .string(row.operationalState)),
            ("carrier", .bool(row.hasCarrier)),
            ("addresses", .array(row.addresses.map { .string($0) })),
            ("isExpensive", .bool(row.isExpensive)),
            ("isConstrained", .bool(row.isConstrained)),
            ("linkQuality", .string(row.linkQuality.description)),
        ])
    }
}

/// An aligned table for a person, with a header line; `-` for an empty cell.
///
/// ```
/// INDEX  NAME  TYPE           OPERSTATE  CARRIER  EXPENSIVE  FLAGS                                    ADDRESSES            QUALITY
/// 1      lo    loopback       UNKNOWN    yes      no         LOOPBACK,UP,RUNNING,LOWER_UP             127.0.0.1/8,::1/128  unknown
/// 2      v0    wiredEthernet  UP         yes      no         BROADCAST,MULTICAST,UP,RUNNING,LOWER_UP  10.9.0.1/24          good
/// ```
/// Every cell is one word, so `awk` can pick columns; QUALITY came last, so the earlier columns
/// keep their places. With `colour`, the operational state is
/// green when up, red when down, and the header is dim.
struct InterfaceTableFormatter: InterfaceFormatter {
    /// Whether to add ANSI colours.
    var colour: Bool

    private static let header = ["INDEX", "NAME", "TYPE", "OPERSTATE", "CARRIER", "EXPENSIVE", "FLAGS", "ADDRESSES", "QUALITY"]

    func format(_ rows: [InterfaceRow]) -> String {
        let cells = rows.map(Self.cells(of:))
        var widths = Self.header.map(\.count)
        for row in cells {
            for (column, cell) in row.enumerated() {
                widths[column] = max(widths[column], cell.count)
            }
        }
        var out = line(Self.header, widths: widths, paint: { text, _ in paint(text, "2") })
        for (row, rowCells) in zip(rows, cells) {
            out += line(rowCells, widths: widths) { text, column in
                column == 3 ? paint(text, Self.colourCode(ofOperationalState: row.operationalState)) : text
            }
        }
        return out
    }

    /// The cells of one row, in the header's order.
    private static func cells(of row: InterfaceRow) -> [String] {
        [
            String(row.index),
            row.name,
            row.type.description,
            row.operationalState,
            row.hasCarrier ? "yes" : "no",
            row.isExpensive ? "yes" : "no",
            row.flags.isEmpty ? "-" : row.flags.joined(separator: ","),
            row.addresses.isEmpty ? "-" : row.addresses.joined(separator: ","),
            row.linkQuality.description,
        ]
    }

    /// The cells padded to their column's width (the last one not), two spaces apart.
    private func line(_ cells: [String], widths: [Int], paint: (String, Int) -> String) -> String {
        var parts: [String] = []
        for (column, cell) in cells.enumerated() {
            let isLast = column == cells.count - 1
            let padding = isLast ? "" : String(repeating: " ", count: max(0, widths[column] - cell.count))
            parts.append(paint(cell, column) + padding)
        }
        return parts.joined(separator: "  ") + "\n"
    }

    /// The SGR code of an operational state: green when up, red when down, none otherwise.
    private static func colourCode(ofOperationalState state: String?) -> String? {
        switch state {
        case "UP": "32"
        case "DOWN", "LOWERLAYERDOWN", "NOTPRESENT": "31"
        default: nil
        }
    }

    /// `text` in the colour `code`, when colours are on and there is a code.
    private func paint(_ text: String, _ code: String?) -> String {
        guard colour, let code else { return text }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
