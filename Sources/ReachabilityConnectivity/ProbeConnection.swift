import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// Why a probe's connection ended without an HTTP answer.
package enum ProbeFailure: Error, Equatable {
    case cancelled
    case timedOut(String)
    case failed(String)
    /// An `https://` probe's TLS failed: `kind` is the reason's word (`certificate expired`), `detail` OpenSSL's.
    case tls(String, detail: String)

    /// What happened, for the log: the address, errno or OpenSSL's words.
    package var detail: String {
        switch self {
        case .cancelled: "cancelled"
        case .timedOut(let why), .failed(let why), .tls(_, detail: let why): why
        }
    }

    /// Its word for ``NetworkPath/connectivityReason``. A socket call's failure ends with its
    /// errno (`connect to 192.0.2.1: ECONNREFUSED`), which says which word it is; another failure
    /// (no socket could be made) is told as it is.
    package var reason: String {
        switch self {
        case .cancelled, .timedOut: ConnectivityReason.timedOut
        case .failed(let detail): ConnectivityReason.socketFailure(detail) ?? detail
        case .tls(let kind, _): ConnectivityReason.tls(kind)
        }
    }
}

/// A non-blocking TCP connection of a probe: every wait is a `poll` on the socket and the probe's
/// `ProbeSignal`, bounded by the probe's deadline. The socket is made inside the monitor's
/// namespace (a socket stays in the namespace it was made in), and closed on deinit.
package final class ProbeConnection {
    package let descriptor: Int32
    private let signal: ProbeSignal
    private let deadline: ContinuousClock.Instant

    /// Opens a socket for `address` inside `namespace` and connects it, giving up on the connect
    /// at `connectBy` (at most `deadline`, the end of every wait of the exchange that follows).
    package init(to address: IPAddress, port: UInt16, namespace: NetworkNamespace, signal: ProbeSignal,
         deadline: ContinuousClock.Instant, connectBy: ContinuousClock.Instant? = nil) throws(ProbeFailure) {
        self.signal = signal
        self.deadline = deadline
        let family = address.family.addressFamily
        let made: Int32
        do {
            made = try NamespaceEntry.run(in: namespace) { () throws(NetlinkError) -> Int32 in
                let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                return fd >= 0 ? fd : -errno
            }
        } catch {
            throw .failed("cannot open a socket in the namespace: \(error)")
        }
        guard made >= 0 else { throw .failed("socket: \(ReachabilityError.errnoName(-made))") }
        descriptor = made
        try connect(address, port: port, by: min(connectBy ?? deadline, deadline))
    }

    deinit { close(descriptor) }

    private func connect(_ address: IPAddress, port: UInt16, by connectDeadline: ContinuousClock.Instant) throws(ProbeFailure) {
        let result: Int32 = Self.withSocketAddress(address, port: port) { pointer, length in
            Glibc.connect(descriptor, pointer, length) == 0 ? 0 : errno
        }
        if result == 0 { return }
        guard result == EINPROGRESS || result == EINTR else {
            throw .failed("connect to \(address): \(ReachabilityError.errnoName(result))")
        }
        try wait(for: Int16(POLLOUT), doing: "connect to \(address)", until: connectDeadline)
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
        if error != 0 { throw .failed("connect to \(address): \(ReachabilityError.errnoName(error))") }
    }

    /// Sends all of `bytes`.
    package func send(_ bytes: [UInt8]) throws(ProbeFailure) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 { sent += count; continue }
            let code = errno
            guard code == EAGAIN || code == EINTR else { throw .failed("send: \(ReachabilityError.errnoName(code))") }
            try wait(for: Int16(POLLOUT), doing: "send")
        }
    }

    /// Receives at most `limit` bytes into `buffer`. - Returns: false when the peer closed.
    package func receive(into buffer: inout [UInt8], limit: Int) throws(ProbeFailure) -> Bool {
        while true {
            var chunk = [UInt8](repeating: 0, count: max(1, min(limit, 4096)))
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[0..<count]
                return true
            }
            if count == 0 { return false }
            let code = errno
            guard code == EAGAIN || code == EINTR else { throw .failed("recv: \(ReachabilityError.errnoName(code))") }
            try wait(for: Int16(POLLIN), doing: "waiting for the answer")
        }
    }

    /// Polls the socket and the signal until `events`, the deadline (`until`, else the probe's), or a cancel.
    package func wait(for events: Int16, doing what: String, until end: ContinuousClock.Instant? = nil) throws(ProbeFailure) {
        while true {
            if signal.isCancelled { throw .cancelled }
            let left = (end ?? deadline) - ContinuousClock.now
            guard left > .zero else { throw .timedOut("\(what): timed out") }
            let milliseconds = left.pollMilliseconds
            var fds = [pollfd(fd: descriptor, events: events, revents: 0),
                       pollfd(fd: signal.descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, milliseconds)
            if ready < 0 && errno != EINTR { throw .failed("poll: \(ReachabilityError.errnoName(errno))") }
            if signal.isCancelled { throw .cancelled }
            if fds[1].revents != 0 { signal.drain() }
            if fds[0].revents != 0 { return }
        }
    }

    private static func withSocketAddress<T>(_ address: IPAddress, port: UInt16,
                                             _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        switch address.family {
        case .ipv4:
            var storage = sockaddr_in()
            storage.sin_family = sa_family_t(AF_INET)
            storage.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage.sin_addr) { $0.copyBytes(from: address.bytes) }
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .ipv6:
            var storage = sockaddr_in6()
            storage.sin6_family = sa_family_t(AF_INET6)
            storage.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage.sin6_addr) { $0.copyBytes(from: address.bytes) }
            switch address.scope {
            case .index(let index): storage.sin6_scope_id = UInt32(clamping: index)
            case .name(let name): storage.sin6_scope_id = if_nametoindex(name)
            case nil: break
            }
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
    }
}
