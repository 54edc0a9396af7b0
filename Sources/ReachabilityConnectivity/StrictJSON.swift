/// A small strict JSON parser (RFC 8259) for the captive-portal API's answer: the core has no
/// Foundation, and a decoder that builds everything it is given would be a way in for a hostile
/// network. Everything is capped: the input, the nesting, the members of an object, the length
/// of a string; anything outside the grammar (a trailing comma, a leading zero, a lone
/// surrogate, an unescaped control character, a duplicate key, bytes after the value) is refused.
package enum StrictJSON {
    package indirect enum Value: Equatable, Sendable {
        case null
        case bool(Bool)
        /// Kept as parsed; integers up to 2^53 are exact.
        case number(Double)
        case string(String)
        case array([Value])
        case object([String: Value])
    }

    package struct Limits: Sendable {
        package var bytes = 16 * 1024
        package var depth = 8
        package var members = 64
        package var stringBytes = 4096
        package init() {}
    }

    /// Parses one JSON value filling all of `bytes`. - Returns: the value, or why it is refused.
    package static func parse(_ bytes: [UInt8], limits: Limits = Limits()) -> Result<Value, ParseError> {
        guard bytes.count <= limits.bytes else { return .failure(ParseError("longer than \(limits.bytes) bytes")) }
        var parser = Parser(bytes: bytes, limits: limits)
        do throws(ParseError) {
            parser.skipSpace()
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.position == bytes.count else { throw parser.error("bytes after the value") }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    package struct ParseError: Error, Equatable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    private struct Parser {
        let bytes: [UInt8]
        let limits: Limits
        var position = 0

        func error(_ what: String) -> ParseError { ParseError("\(what) at byte \(position)") }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[position]) { position += 1 }
        }

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func expect(_ literal: String, _ value: Value) throws(ParseError) -> Value {
            let expected = Array(literal.utf8)
            guard bytes.count - position >= expected.count,
                  bytes[position..<(position + expected.count)].elementsEqual(expected) else { throw error("not a JSON value") }
            position += expected.count
            return value
        }

        mutating func value(depth: Int) throws(ParseError) -> Value {
            guard let byte = peek() else { throw error("unexpected end") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw error("not a JSON value")
            }
        }

        mutating func object(depth: Int) throws(ParseError) -> Value {
            guard depth <= limits.depth else { throw error("nested deeper than \(limits.depth)") }
            position += 1
            var members: [String: Value] = [:]
            skipSpace()
            if peek() == UInt8(ascii: "}") { position += 1; return .object(members) }
            while true {
                skipSpace()
                guard peek() == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                skipSpace()
                guard peek() == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                skipSpace()
                let member = try value(depth: depth)
                guard members.updateValue(member, forKey: key) == nil else { throw error("duplicate key '\(key)'") }
                guard members.count <= limits.members else { throw error("more than \(limits.members) members") }
                skipSpace()
                switch peek() {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"): position += 1; return .object(members)
                default: throw error("expected ',' or '}'")
                }
            }
        }

        mutating func array(depth: Int) throws(ParseError) -> Value {
            guard depth <= limits.depth else { throw error("nested deeper than \(limits.depth)") }
            position += 1
            var elements: [Value] = []
            skipSpace()
            if peek() == UInt8(ascii: "]") { position += 1; return .array(elements) }
            while true {
                skipSpace()
                elements.append(try value(depth: depth))
                guard elements.count <= limits.members else { throw error("more than \(limits.members) elements") }
                skipSpace()
                switch peek() {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"): position += 1; return .array(elements)
                default: throw error("expected ',' or ']'")
                }
            }
        }

        /// A number as RFC 8259 §6 writes it: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
        mutating func number() throws(ParseError) -> Double {
            let start = position
            if peek() == UInt8(ascii: "-") { position += 1 }
            guard let first = peek(), isDigit(first) else { throw error("a number without digits") }
            position += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if peek() == UInt8(ascii: ".") {
                position += 1
                guard let digit = peek(), isDigit(digit) else { throw error("a fraction without digits") }
                skipDigits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                position += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
                guard let digit = peek(), isDigit(digit) else { throw error("an exponent without digits") }
                skipDigits()
            }
            guard position - start <= 64, let number = Double(String(decoding: bytes[start..<position], as: UTF8.self)),
                  number.isFinite else { throw error("a number out of range") }
            return number
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        mutating func skipDigits() {
            while let byte = peek(), isDigit(byte) { position += 1 }
        }

        /// A string: escapes decoded, UTF-8 validated, control characters refused.
        mutating func string() throws(ParseError) -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            var length = 0
            while true {
                guard let byte = peek() else { throw error("an unterminated string") }
                length += 1
                guard length <= limits.stringBytes else { throw error("a string longer than \(limits.stringBytes) bytes") }
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    try flush(&raw, into: &scalars)
                    return String(scalars)
                }
                guard byte >= 0x20 else { throw error("a control character in a string") }
                if byte != UInt8(ascii: "\\") {
                    raw.append(byte)
                    position += 1
                    continue
                }
                try flush(&raw, into: &scalars)
                position += 1
                guard let escape = peek() else { throw error("an unterminated escape") }
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
                default: throw error("an unknown escape")
                }
            }
        }

        /// The bytes of a run without escapes, which must be valid UTF-8.
        func flush(_ raw: inout [UInt8], into scalars: inout String.UnicodeScalarView) throws(ParseError) {
            guard !raw.isEmpty else { return }
            defer { raw.removeAll(keepingCapacity: true) }
            var iterator = raw.makeIterator()
            var decoder = UTF8()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput: return
                case .error: throw error("invalid UTF-8 in a string")
                }
            }
        }

        /// `\uXXXX`, a surrogate pair taken together; a lone surrogate is refused.
        mutating func unicodeEscape() throws(ParseError) -> Unicode.Scalar {
            let high = try hex4()
            if (0xDC00...0xDFFF).contains(high) { throw error("a lone low surrogate") }
            guard (0xD800...0xDBFF).contains(high) else {
                guard let scalar = Unicode.Scalar(high) else { throw error("an invalid escape") }
                return scalar
            }
            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw error("a lone high surrogate")
            }
            position += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low),
                  let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) else {
                throw error("a lone high surrogate")
            }
            return scalar
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard bytes.count - position >= 4 else { throw error("a short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("a bad \\u escape")
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }
    }
}
