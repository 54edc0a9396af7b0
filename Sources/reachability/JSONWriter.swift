import ReachabilityModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where bytes of text are appended: an array, or a `JSONWriter`'s line.
protocol ByteSink {
    mutating func append(_ byte: UInt8)
}

extension Array: ByteSink where Element == UInt8 {}

/// Writes compact JSON straight into bytes, keys in the order they are written.
///
/// The command's records go through it rather than through a `JSONValue` tree, into the buffer
/// the printer keeps from record to record (`line(into:_:)`): a record is no allocation at all,
/// neither an array per object and a string per value, nor the line's own string; and each byte
/// is a store into that buffer, not an array's append with its checks (BENCHMARKS.md).
struct JSONWriter: ByteSink {
    private let buffer: UnsafeMutableRawBufferPointer
    /// Bytes written so far.
    private(set) var count = 0
    /// What was to be written did not fit: `line(into:_:)` writes it again into a larger buffer.
    private(set) var overflowed = false
    /// A value was written at this level: the next key or element needs a comma first.
    private var needsComma = false

    private init(into buffer: UnsafeMutableRawBufferPointer) {
        self.buffer = buffer
    }

    /// Makes `line` what `body` writes, into `line`'s own storage (its capacity kept from the
    /// last line, doubled while a line does not fit).
    static func line(into line: inout [UInt8], minimumCapacity: Int, _ body: (inout JSONWriter) -> Void) {
        var size = Swift.max(line.capacity, minimumCapacity)
        while true {
            // The storage is written through a buffer of the array's count: filled up to `size`.
            if line.count < size { line.append(contentsOf: repeatElement(0, count: size - line.count)) }
            let written: Int? = line.withUnsafeMutableBytes { buffer in
                var json = JSONWriter(into: buffer)
                body(&json)
                return json.overflowed ? nil : json.count
            }
            if let written {
                line.removeLast(line.count - written)
                return
            }
            size *= 2
        }
    }

    mutating func append(_ byte: UInt8) {
        guard count < buffer.count else { overflowed = true; return }
        buffer[count] = byte
        count += 1
    }

    /// Whether `length` more bytes fit; marks the writer overflowed when not. One check for a
    /// key, a literal or a string, then plain stores.
    private mutating func fits(_ length: Int) -> Bool {
        if count + length <= buffer.count { return true }
        overflowed = true
        return false
    }

    /// Stores `byte` where `fits` made room.
    private mutating func store(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    /// Stores `bytes` where `fits` made room.
    private mutating func store(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (buffer.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard fits(bytes.count) else { return }
        store(bytes)
    }

    private mutating func append(_ literal: StaticString) {
        guard fits(literal.utf8CodeUnitCount) else { return }
        store(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    mutating func beginObject() { separate(); append(UInt8(ascii: "{")); needsComma = false }
    mutating func endObject() { append(UInt8(ascii: "}")); needsComma = true }
    mutating func beginArray() { separate(); append(UInt8(ascii: "[")); needsComma = false }
    mutating func endArray() { append(UInt8(ascii: "]")); needsComma = true }

    /// An object's key; the next call writes its value.
    mutating func key(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        guard fits(length + 4) else { return }
        if needsComma { store(UInt8(ascii: ",")) }
        store(UInt8(ascii: "\""))
        store(UnsafeRawBufferPointer(start: name.utf8Start, count: length))
        store(UInt8(ascii: "\""))
        store(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func null() { separate(); append("null"); needsComma = true }
    mutating func bool(_ value: Bool) { separate(); append(value ? "true" : "false"); needsComma = true }
    mutating func int(_ value: Int) { separate(); Self.appendDecimal(value, to: &self); needsComma = true }

    /// Ends a line of JSON Lines.
    mutating func newline() { append(UInt8(ascii: "\n")); needsComma = false }

    /// A string, or `null` when nil.
    mutating func string(_ value: String?) {
        guard var value else { return null() }
        separate()
        value.withUTF8 { utf8 in
            // Nearly every string of a record (names, flags) needs no escape: copied whole,
            // checked as it is copied.
            guard fits(utf8.count + 2) else { return }
            let start = count
            store(UInt8(ascii: "\""))
            for byte in utf8 {
                if Self.needsEscape(byte) {
                    count = start
                    var escaped: [UInt8] = []
                    Self.appendString(String(decoding: utf8, as: UTF8.self), to: &escaped)
                    escaped.withUnsafeBytes { append($0) }
                    return
                }
                store(byte)
            }
            store(UInt8(ascii: "\""))
        }
        needsComma = true
    }

    /// An address as `inet_ntop` writes it (scope left out), without an intermediate string.
    mutating func address(_ address: IPAddress) {
        separate()
        append(UInt8(ascii: "\""))
        if address.family == .ipv4 {
            // By hand: `inet_ntop` formats an IPv4 address through `sprintf`, some 1,700
            // instructions of the C library's formatter for every record with a gateway.
            address.withUnsafeBytes { raw in
                for (position, byte) in raw.enumerated() {
                    if position > 0 { append(UInt8(ascii: ".")) }
                    if byte >= 100 { append(UInt8(ascii: "0") + byte / 100) }
                    if byte >= 10 { append(UInt8(ascii: "0") + byte / 10 % 10) }
                    append(UInt8(ascii: "0") + byte % 10)
                }
            }
            append(UInt8(ascii: "\""))
            needsComma = true
            return
        }
        var text = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0)) // INET6_ADDRSTRLEN (46) fits
        withUnsafeMutableBytes(of: &text) { out in
            let written = address.withUnsafeBytes { raw in
                inet_ntop(address.family.addressFamily, raw.baseAddress, out.baseAddress, socklen_t(out.count))
            }
            let length = written == nil ? 0 : strlen(out.baseAddress!.assumingMemoryBound(to: CChar.self))
            append(UnsafeRawBufferPointer(rebasing: out.prefix(length)))
        }
        append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A string value that `body` appends and that needs no escaping (a timestamp's digits).
    mutating func unescapedString(_ body: (inout JSONWriter) -> Void) {
        separate()
        append(UInt8(ascii: "\""))
        body(&self)
        append(UInt8(ascii: "\""))
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// `value` in decimal, without a string.
    static func appendDecimal(_ value: Int, to out: inout some ByteSink) {
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
            for byte in buffer[index...] { out.append(byte) }
        }
    }

    /// A JSON string literal (RFC 8259): quote, backslash and control characters escaped,
    /// everything else as UTF-8.
    static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Nearly every string (names, flags) needs no escape: appended whole.
        if !value.utf8.contains(where: needsEscape) {
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
