@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

final class HTTPResponseParserTests: XCTestCase {
    private func head(_ text: String) -> HTTPResponseParser.HeadResult {
        HTTPResponseParser.parseHead(Array(text.utf8))
    }

    func testParseHead_204_redirect_andFraming() throws {
        guard case .head(let noContent) = head("HTTP/1.1 204 No Content\r\nServer: x\r\n\r\n") else { return XCTFail() }
        XCTAssertEqual(noContent.status, 204)
        XCTAssertEqual(noContent.framing, .contentLength(0))
        guard case .head(let redirect) = head("HTTP/1.0 302 Found\r\nlocation:  http://portal/  \r\nContent-Length: 5\r\n\r\nabcde") else {
            return XCTFail()
        }
        XCTAssertEqual(redirect.status, 302)
        XCTAssertEqual(redirect.location, "http://portal/")
        XCTAssertEqual(redirect.framing, .contentLength(5))
        guard case .head(let chunked) = head("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n") else { return XCTFail() }
        XCTAssertEqual(chunked.framing, .chunked)
        guard case .head(let open) = head("HTTP/1.1 200 OK\r\n\r\n") else { return XCTFail() }
        XCTAssertEqual(open.framing, .untilClose)
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\n\r\n"), .head(open))
    }

    func testParseHead_needsMore_thenRejectsWhatIsNotHTTP() {
        XCTAssertEqual(head(""), .needMore)
        XCTAssertEqual(head("HTT"), .needMore)
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\nX: y"), .needMore)
        XCTAssertEqual(head("SSH-2.0-OpenSSH\r\n"), .malformed("the answer is not HTTP"))
        XCTAssertEqual(head("HTTP/2 200\r\n\r\n"), .malformed("bad status line"))
        XCTAssertEqual(head("HTTP/1.1 2000 OK\r\n\r\n"), .malformed("bad status line"))
        XCTAssertEqual(head("HTTP/1.1 099\r\n\r\n"), .malformed("bad status line"))
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\nNo colon\r\n\r\n"), .malformed("bad header line"))
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n"), .malformed("bad header name"))
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"), .malformed("bad Content-Length"))
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
                       .malformed("conflicting Content-Length"))
        XCTAssertEqual(head("HTTP/1.1 302 Found\r\nLocation: a\r\nLocation: b\r\n\r\n"), .malformed("two Location headers"))
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n"), .malformed("unsupported Transfer-Encoding"))
    }

    /// RFC 9110 §15.2: interim (1xx) heads are skipped; the head after them is the answer.
    func testParseHead_skipsInterimHeads_andParsesTheFinalOne() throws {
        let continued = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
        guard case .head(let noContent) = head(continued) else { return XCTFail("\(head(continued))") }
        XCTAssertEqual(noContent.status, 204)
        XCTAssertEqual(noContent.bodyOffset, continued.utf8.count)
        let hinted = "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n"
            + "HTTP/1.1 302 Found\r\nLocation: /login\r\nContent-Length: 3\r\n\r\nabc"
        guard case .head(let redirect) = head(hinted) else { return XCTFail("\(head(hinted))") }
        XCTAssertEqual(redirect.status, 302)
        XCTAssertEqual(redirect.location, "/login")
        XCTAssertEqual(redirect.framing, .contentLength(3))
        XCTAssertEqual(Array(hinted.utf8)[redirect.bodyOffset...], Array("abc".utf8)[...])
        // The final head not there yet: more is needed, and what follows must still be HTTP.
        XCTAssertEqual(head("HTTP/1.1 100 Continue\r\n\r\n"), .needMore)
        XCTAssertEqual(head("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 20"), .needMore)
        XCTAssertEqual(head("HTTP/1.1 100 Continue\r\n\r\nSSH-2.0\r\n"), .malformed("the answer is not HTTP"))
        XCTAssertEqual(head("HTTP/1.1 100 Continue\r\nBad Name: x\r\n\r\nHTTP/1.1 204\r\n\r\n"), .malformed("bad header name"))
        // 101 ends HTTP on the connection: it is the (unexpected) final status.
        guard case .head(let switched) = head("HTTP/1.1 101 Switching Protocols\r\n\r\nHTTP/1.1 204\r\n\r\n") else { return XCTFail() }
        XCTAssertEqual(switched.status, 101)
    }

    func testDecodeBody_lengthChunkedAndClose() {
        let bytes = Array("hello world".utf8)[...]
        XCTAssertEqual(HTTPResponseParser.decodeBody(bytes, framing: .contentLength(5), closed: false),
                       .body(Array("hello".utf8), complete: true))
        XCTAssertEqual(HTTPResponseParser.decodeBody(bytes, framing: .contentLength(50), closed: false),
                       .body(Array(bytes), complete: false))
        XCTAssertEqual(HTTPResponseParser.decodeBody(bytes, framing: .untilClose, closed: true), .body(Array(bytes), complete: true))
        let chunked = Array("5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\n\r\n".utf8)[...]
        XCTAssertEqual(HTTPResponseParser.decodeBody(chunked, framing: .chunked, closed: false),
                       .body(Array("hello world".utf8), complete: true))
        let partial = Array("5\r\nhel".utf8)[...]
        XCTAssertEqual(HTTPResponseParser.decodeBody(partial, framing: .chunked, closed: false), .body(Array("hel".utf8), complete: false))
        XCTAssertEqual(HTTPResponseParser.decodeBody(Array("zz\r\n".utf8)[...], framing: .chunked, closed: false),
                       .malformed("bad chunk size"))
        XCTAssertEqual(HTTPResponseParser.decodeBody(Array("2\r\nokXX".utf8)[...], framing: .chunked, closed: false),
                       .malformed("chunk without its CRLF"))
    }
}
