import ReachabilityModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes compact JSON straight into bytes, keys in the order they are written.
///
/// The command's records go through it rather than through a `JSONValue` tree, into a buffer the
/// printer keeps from record to record: a record is then no allocation at all, neither an array
/// per object and a string per value, nor the line's own string (BENCHMARKS.md).
struct JSONWriter {
    private(set) var bytes: [UInt8]
    /// A value was written at this level: the next key or element needs a comma first.
    private var needsComma = false

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Writes into `buffer`'s storage, emptied, its capacity kept (the printer's buffer of the
    /// last record); `buffer` is left empty until the caller takes `bytes` back.
    init(taking buffer: inout [UInt8]) {
        bytes = []
        swap(&bytes, &buffer)  // the writer holds the storage alone: emptying it frees nothing
        bytes.removeAll(keepingCapacity: true)
    }

    /// What was written, as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// An object's key; the next call writes its value.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func null() { separate(); Self.append("null", to: &bytes); needsComma = true }
    mutating func bool(_ value: Bool) { separate(); Self.append(value ? "true" : "false", to: &bytes); needsComma = true }
    mutating func int(_ value: Int) { separate(); Self.appendDecimal(value, to: &bytes); needsComma = true }

    /// Ends a line of JSON Lines.
    mutating func newline() { bytes.append(UInt8(ascii: "\n")); needsComma = false }

    /// A string, or `null` when nil.
    mutating func string(_ value: String?) {
        guard let value else { return null() }
        separate()
        Self.appendString(value, to: &bytes)
        needsComma = true
    }

    /// An address as `inet_ntop` writes it (scope left out), without an intermediate string.
    mutating func address(_ address: IPAddress) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var text = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0)) // INET6_ADDRSTRLEN (46) fits
        withUnsafeMutableBytes(of: &text) { out in
            let written = address.withUnsafeBytes { raw in
                inet_ntop(address.family.addressFamily, raw.baseAddress, out.baseAddress, socklen_t(out.count))
            }
            let length = written == nil ? 0 : strlen(out.baseAddress!.assumingMemoryBound(to: CChar.self))
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: out.prefix(length)))
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A string value that `body` appends and that needs no escaping (a timestamp's digits).
    mutating func unescapedString(_ body: (inout [UInt8]) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        body(&bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private static func append(_ literal: StaticString, to out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// `value` in decimal, without a string.
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = (UInt64(0), UInt64(0), UInt64(0)) // 20 digits at most
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// A JSON string literal (RFC 8259): quote, backslash and control characters escaped,
    /// everything else as UTF-8.
    static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Nearly every string of a record (names, flags) needs no escape: appended whole.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: value.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The same, appended to text (`JSONValue`'s documents).
    static func appendString(_ value: String, to out: inout String) {
        var bytes: [UInt8] = []
        appendString(value, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }
}
