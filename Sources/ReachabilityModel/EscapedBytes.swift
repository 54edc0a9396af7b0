/// Bytes from the network written so a log line or a reason can hold them safely: printable ASCII
/// but the space as it is, a backslash doubled, every other byte as `\xNN` (a space too, so a
/// value stays one word among a log line's `key=value` pairs), and at most `limit` bytes of the
/// input, the rest told as a count. A hostile value (an ESC sequence, a C1 control, CRLF, a NUL,
/// bytes that are not UTF-8) then never reaches a terminal or a log parser as itself.
package enum EscapedBytes {
    /// How many bytes of a value are written before the rest is only counted.
    package static let defaultLimit = 96

    /// `bytes` escaped, e.g. `https://p.example/\x1b[31m` or `aaaa... (1500 bytes)`.
    package static func text<Bytes: Collection>(_ bytes: Bytes, limit: Int = defaultLimit) -> String where Bytes.Element == UInt8 {
        var text = ""
        for byte in bytes.prefix(limit) {
            switch byte {
            case UInt8(ascii: "\\"): text += "\\\\"
            case 0x21..<0x7f: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
            }
        }
        if bytes.count > limit { text += "... (\(bytes.count) bytes)" }
        return text
    }

    /// `string`'s UTF-8 escaped as `text(_:limit:)` does.
    package static func text(_ string: String, limit: Int = defaultLimit) -> String {
        text(Array(string.utf8), limit: limit)
    }
}
