/// Writes compact JSON straight into one string, keys in the order they are written.
///
/// The command's records go through it rather than through a `JSONValue` tree: a record is then
/// one string reserved once, not an array per object and a string per value
/// (BENCHMARKS.md: about 20 allocations a record before, 1 now, the line itself).
struct JSONWriter {
    private(set) var text = ""
    /// A value was written at this level: the next key or element needs a comma first.
    private var needsComma = false

    init(capacity: Int) {
        text.reserveCapacity(capacity)
    }

    mutating func beginObject() { separate(); text += "{"; needsComma = false }
    mutating func endObject() { text += "}"; needsComma = true }
    mutating func beginArray() { separate(); text += "["; needsComma = false }
    mutating func endArray() { text += "]"; needsComma = true }

    /// An object's key; the next call writes its value.
    mutating func key(_ name: String) {
        separate()
        Self.appendString(name, to: &text)
        text += ":"
        needsComma = false
    }

    mutating func null() { separate(); text += "null"; needsComma = true }
    mutating func bool(_ value: Bool) { separate(); text += value ? "true" : "false"; needsComma = true }
    mutating func int(_ value: Int) { separate(); text += String(value); needsComma = true }

    /// Ends a line of JSON Lines.
    mutating func newline() { text += "\n"; needsComma = false }

    /// A string, or `null` when nil.
    mutating func string(_ value: String?) {
        guard let value else { return null() }
        separate()
        Self.appendString(value, to: &text)
        needsComma = true
    }

    /// A string value that `body` appends and that needs no escaping (a timestamp's digits).
    mutating func unescapedString(_ body: (inout String) -> Void) {
        separate()
        text += "\""
        body(&text)
        text += "\""
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { text += "," }
    }

    /// A JSON string literal (RFC 8259): quote, backslash and control characters escaped,
    /// everything else as UTF-8.
    static func appendString(_ value: String, to out: inout String) {
        out += "\""
        // Nearly every string of a record (names, addresses, flags) needs no escape: appended whole,
        // not scalar by scalar.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += value
            out += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
