import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A status and a body, as a plain HTTP/1.1 GET to 127.0.0.1 returned them.
struct HTTPAnswer {
    var status: Int
    var body: String
}

/// `GET path` over a real TCP connection to `127.0.0.1:port`, `Connection: close`, read to EOF.
/// Blocking and small on purpose: a test's request, not a client.
func httpGet(port: Int, _ path: String) throws -> HTTPAnswer {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw CommandFailure(description: "socket: errno \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw CommandFailure(description: "connect to 127.0.0.1:\(port): errno \(errno)") }
    let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
    guard write(fd, request, request.count) == request.count else { throw CommandFailure(description: "write: errno \(errno)") }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { break }
        response += buffer[0..<count]
    }
    let text = String(decoding: response, as: UTF8.self)
    let parts = text.components(separatedBy: "\r\n\r\n")
    let statusLine = parts.first?.split(separator: "\r\n").first ?? ""
    guard let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
        throw CommandFailure(description: "no HTTP status in '\(statusLine)'")
    }
    return HTTPAnswer(status: status, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
}
