import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A connectivity probe's server on 127.0.0.1 for tests that need no namespace: it answers every
/// request with `204 No Content` (a `full` answer) on a thread of its own, until `stop`.
final class LoopbackHTTPServer: @unchecked Sendable {  // `let`s only; the thread owns the accepting
    let port: Int
    private let listener: Int32
    private let ended = DispatchSemaphore(value: 0)

    init() throws {
        let (socket, port) = try Self.boundLoopbackSocket()
        guard listen(socket, 64) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        listener = socket
        self.port = port
        Thread.detachNewThread { [self] in
            while case let connection = accept(listener, nil, nil), connection >= 0 {
                Self.answer(connection)
            }
            ended.signal()
        }
    }

    /// Stops accepting (`shutdown` wakes the blocked `accept`) and closes the socket.
    func stop() {
        _ = shutdown(listener, Int32(SHUT_RDWR))
        ended.wait()
        _ = close(listener)
    }

    /// A TCP socket bound to 127.0.0.1 on a free port, not listening: a connection to it is
    /// refused (the probe's `limited`) for as long as it stays open.
    static func boundLoopbackSocket() throws -> (socket: Int32, port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            _ = close(socket)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Reads the request (closing with it unread would reset the connection) and answers 204.
    private static func answer(_ connection: Int32) {
        defer { _ = close(connection) }
        var request = [UInt8](repeating: 0, count: 4096)
        var received: [UInt8] = []
        while !received.suffix(4).elementsEqual("\r\n\r\n".utf8) {
            let count = read(connection, &request, request.count)
            guard count > 0 else { return }
            received += request[..<count]
        }
        let reply = Array("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
    }
}
