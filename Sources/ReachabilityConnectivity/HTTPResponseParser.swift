import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
/// The head of an HTTP/1.x response, as much of it as a probe needs.
package struct HTTPResponseHead: Equatable, Sendable {
    package enum Framing: Equatable, Sendable {
        case contentLength(Int)
        case chunked
        /// Neither: the body ends when the connection closes.
        case untilClose
    }

    package var status: Int
    package var location: String?
    /// The `Content-Type`'s media type, lowercased, without its parameters (the captive-portal API's check).
    package var contentType: String?
    package var framing: Framing
    /// Where the body starts in the bytes given to the parser.
    package var bodyOffset: Int

    package init(status: Int, location: String? = nil, framing: Framing, bodyOffset: Int) {
        self.status = status
        self.location = location
        self.framing = framing
        self.bodyOffset = bodyOffset
    }
}

/// A strict parser of an HTTP/1.x response head and body, for the connectivity probe.
///
/// It reads only what it is given (the probe caps that), never allocates beyond it, and says
/// `malformed` for anything that is not HTTP: a portal must answer HTTP to be called one.
/// `Fuzz/Targets/httpresponse.swift` feeds it arbitrary bytes.
package enum HTTPResponseParser {
    package enum HeadResult: Equatable, Sendable {
        /// The head is not complete yet.
        case needMore
        case head(HTTPResponseHead)
        case malformed(String)
    }

    package enum BodyResult: Equatable, Sendable {
        /// The body so far; `complete` when its framing says it ended.
        case body([UInt8], complete: Bool)
        case malformed(String)
    }

    private static let cr: UInt8 = 13, lf: UInt8 = 10

    /// Parses the status line and headers of the final response at the start of `bytes`.
    ///
    /// Interim (1xx) heads before it are skipped, as RFC 9110 §15.2 asks of every client even
    /// when it expects none: a `100 Continue` or `103 Early Hints` is not the answer, the head after
    /// it is. They take from the same capped bytes, so they cannot stretch the read. A `101
    /// Switching Protocols` is final (what follows is no longer HTTP); nobody asked for it, so it is
    /// a status like any other unexpected one.
    package static func parseHead(_ bytes: [UInt8]) -> HeadResult {
        var start = 0
        while true {
            switch parseOneHead(bytes, from: start) {
            case .head(let head) where (100...199).contains(head.status) && head.status != 101:
                start = head.bodyOffset
            case let result:
                return result
            }
        }
    }

    /// One head starting at `start`; its `bodyOffset` counts from the start of `bytes`.
    private static func parseOneHead(_ bytes: [UInt8], from start: Int) -> HeadResult {
        guard let end = headEnd(bytes, from: start) else {
            // A prefix that cannot start a status line fails now, not at the cap.
            let prefix = Array("HTTP/1.".utf8)
            let compared = min(bytes.count - start, prefix.count)
            if !bytes[start...].prefix(compared).elementsEqual(prefix.prefix(compared)) {
                return .malformed("the answer is not HTTP")
            }
            return .needMore
        }
        var lines = split(bytes[start..<end])
        guard !lines.isEmpty else { return .malformed("empty response head") }
        let statusLine = lines.removeFirst()
        guard let status = parseStatusLine(statusLine) else { return .malformed("bad status line") }
        var location: String?
        var contentType: String?
        var contentLength: Int?
        var chunked = false
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
                return .malformed("bad header line")
            }
            let name = line[line.startIndex..<colon]
            guard name.allSatisfy(isTokenByte) else { return .malformed("bad header name") }
            let value = trimmed(line[line.index(after: colon)...])
            guard value.allSatisfy({ $0 == 9 || ($0 >= 0x20 && $0 != 0x7f) }) else {
                return .malformed("control character in a header value")
            }
            switch String(decoding: name, as: UTF8.self).lowercased() {
            case "location":
                guard location == nil else { return .malformed("two Location headers") }
                location = String(decoding: value, as: UTF8.self)
            case "content-type":
                guard contentType == nil else { return .malformed("two Content-Type headers") }
                contentType = String(String(decoding: value, as: UTF8.self).lowercased()
                    .prefix { $0 != ";" }.trimmingSpaces())
            case "content-length":
                guard value.count <= 18, !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                      let length = Int(String(decoding: value, as: UTF8.self)) else {
                    return .malformed("bad Content-Length")
                }
                if let contentLength, contentLength != length { return .malformed("conflicting Content-Length") }
                contentLength = length
            case "transfer-encoding":
                let codings = String(decoding: value, as: UTF8.self).lowercased()
                    .split(separator: ",").map { $0.trimmingSpaces() }
                guard codings.last == "chunked" else { return .malformed("unsupported Transfer-Encoding") }
                chunked = true
            default:
                break
            }
        }
        let framing: HTTPResponseHead.Framing
        if status == 204 || status == 304 || (100...199).contains(status) {
            framing = .contentLength(0)
        } else if chunked {
            framing = .chunked
        } else if let contentLength {
            framing = .contentLength(contentLength)
        } else {
            framing = .untilClose
        }
        var head = HTTPResponseHead(status: status, location: location, framing: framing, bodyOffset: end + 4)
        head.contentType = contentType
        return .head(head)
    }

    /// Decodes the body bytes received so far (`bytes` starts at the head's `bodyOffset`).
    ///
    /// - Parameter closed: the peer closed the connection after these bytes.
    package static func decodeBody(_ bytes: ArraySlice<UInt8>, framing: HTTPResponseHead.Framing, closed: Bool) -> BodyResult {
        switch framing {
        case .contentLength(let length):
            let body = Array(bytes.prefix(length))
            return .body(body, complete: body.count == length)
        case .untilClose:
            return .body(Array(bytes), complete: closed)
        case .chunked:
            return decodeChunked(bytes)
        }
    }

    private static func decodeChunked(_ bytes: ArraySlice<UInt8>) -> BodyResult {
        var body: [UInt8] = []
        var index = bytes.startIndex
        while true {
            guard let lineEnd = findCRLF(bytes, from: index) else { return .body(body, complete: false) }
            var sizeText = bytes[index..<lineEnd]
            if let extensionStart = sizeText.firstIndex(of: UInt8(ascii: ";")) { sizeText = sizeText[..<extensionStart] }
            sizeText = trimmed(sizeText)
            guard !sizeText.isEmpty, sizeText.count <= 8, let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16),
                  sizeText.allSatisfy(\.isHexDigit) else {
                return .malformed("bad chunk size")
            }
            let dataStart = lineEnd + 2
            if size == 0 { return .body(body, complete: true) }
            let available = bytes.endIndex - dataStart
            if available < size {
                body += bytes[dataStart..<bytes.endIndex]
                return .body(body, complete: false)
            }
            body += bytes[dataStart..<(dataStart + size)]
            let after = dataStart + size
            if bytes.endIndex - after < 2 { return .body(body, complete: false) }
            guard bytes[after] == cr, bytes[after + 1] == lf else { return .malformed("chunk without its CRLF") }
            index = after + 2
        }
    }

    /// `HTTP/1.0 302 Found` or `HTTP/1.1 204`: the status, or nil.
    private static func parseStatusLine(_ line: ArraySlice<UInt8>) -> Int? {
        let text = Array(line)
        guard text.count >= 12, text.starts(with: Array("HTTP/1.".utf8)),
              text[7] == UInt8(ascii: "0") || text[7] == UInt8(ascii: "1"), text[8] == UInt8(ascii: " ") else {
            return nil
        }
        let digits = text[9..<12]
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), text.count == 12 || text[12] == UInt8(ascii: " "),
              let status = Int(String(decoding: digits, as: UTF8.self)), status >= 100 else {
            return nil
        }
        return status
    }

    private static func headEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count - start >= 4 else { return nil }
        for index in start...(bytes.count - 4)
        where bytes[index] == cr && bytes[index + 1] == lf && bytes[index + 2] == cr && bytes[index + 3] == lf {
            return index
        }
        return nil
    }

    private static func findCRLF(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.endIndex {
            if bytes[index] == cr && bytes[index + 1] == lf { return index }
            index += 1
        }
        return nil
    }

    /// The head's lines, split at CRLF; a bare LF is not a line end here (strict).
    private static func split(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        while let end = findCRLF(head, from: start) {
            lines.append(head[start..<end])
            start = end + 2
        }
        lines.append(head[start..<head.endIndex])
        return lines
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 32 || first == 9 { slice = slice.dropFirst() }
        while let last = slice.last, last == 32 || last == 9 { slice = slice.dropLast() }
        return slice
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}

private extension Substring {
    func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
