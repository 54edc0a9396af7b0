import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// TLS over a probe's connected, non-blocking socket: the handshake (SNI, the certificate
/// verified against the context's roots, its name against the probe's host), then the same
/// capped reads and bounded writes as the plain connection.
///
/// OpenSSL reads and writes the socket itself; whenever it would block (`SSL_ERROR_WANT_READ` /
/// `WANT_WRITE`) the wait is the connection's own `poll` on the socket and the probe's signal,
/// bounded by the probe's deadline, so a stalled handshake ends at the timeout and a cancel ends
/// it at once. The socket stays the connection's (made in the monitor's namespace, closed by it).
package final class TLSConnection: ProbeTransport {
    private let connection: ProbeConnection
    /// `SSL *`.
    private let ssl: OpaquePointer
    /// The context, which holds the loaded library the connection calls.
    private let context: TLSContext
    private var openSSL: COpenSSL_Functions { context.openSSL.functions }

    /// Runs the handshake over `connection` for `probe`'s host.
    ///
    /// - Throws: `.tls(kind, detail:)` for a certificate or handshake failure (kind: `certificate
    ///   not trusted`, `certificate expired`, `wrong host name`, `handshake failed`, `timed out`,
    ///   ...), `.cancelled` on a cancel.
    package init(over connection: ProbeConnection, probe: ConnectivityProbe) throws(ProbeFailure) {
        let context = try TLSContext.shared(caFile: probe.caFile)
        let openSSL = context.openSSL.functions
        openSSL.ERR_clear_error()
        guard let ssl = openSSL.SSL_new(context.pointer) else {
            throw .tls("handshake failed", detail: "SSL_new: \(TLSError.queued(context.openSSL))")
        }
        self.connection = connection
        self.ssl = ssl
        self.context = context
        guard openSSL.SSL_set_fd(ssl, connection.descriptor) == 1 else {
            throw .tls("handshake failed", detail: "SSL_set_fd: \(TLSError.queued(context.openSSL))")
        }
        let isAddress = (try? IPAddress(probe.host)) != nil
        if isAddress {
            // An address is checked against the certificate's IP entries; RFC 6066 sends no SNI for it.
            guard openSSL.X509_VERIFY_PARAM_set1_ip_asc(openSSL.SSL_get0_param(ssl), probe.host) == 1 else {
                throw .tls("handshake failed", detail: "cannot check the address \(probe.host): \(TLSError.queued(context.openSSL))")
            }
        } else {
            guard withUnsafePointer(to: openSSL, { COpenSSL_setServerName($0, ssl, probe.host) }) == 1,
                  openSSL.SSL_set1_host(ssl, probe.host) == 1 else {
                throw .tls("handshake failed", detail: "cannot set the host name \(probe.host): \(TLSError.queued(context.openSSL))")
            }
        }
        try handshake()
    }

    deinit { openSSL.SSL_free(ssl) }  // the socket is the connection's to close

    private func handshake() throws(ProbeFailure) {
        while true {
            openSSL.ERR_clear_error()
            let result = openSSL.SSL_connect(ssl)
            if result == 1 { return }
            let code = openSSL.SSL_get_error(ssl, result)
            let errorNumber = errno
            switch code {
            case SSL_ERROR_WANT_READ: try waitDuringHandshake(for: Int16(POLLIN))
            case SSL_ERROR_WANT_WRITE: try waitDuringHandshake(for: Int16(POLLOUT))
            default: throw handshakeFailure(code: code, errno: errorNumber)
            }
        }
    }

    private func waitDuringHandshake(for events: Int16) throws(ProbeFailure) {
        do {
            try connection.wait(for: events, doing: "TLS handshake")
        } catch {
            if case .timedOut(let why) = error { throw .tls("timed out", detail: why) }
            throw error
        }
    }

    /// What a failed handshake means: the certificate's verdict when it was checked and failed,
    /// else the handshake itself (a reset, a peer that does not speak TLS, no common protocol).
    private func handshakeFailure(code: Int32, errno errorNumber: Int32) -> ProbeFailure {
        let verdict = Int32(truncatingIfNeeded: openSSL.SSL_get_verify_result(ssl))
        if verdict != X509_V_OK {
            let text = openSSL.X509_verify_cert_error_string(Int(verdict)).map { String(cString: $0) } ?? "error \(verdict)"
            return .tls(Self.certificateKind(verdict), detail: "certificate: \(text)")
        }
        if code == SSL_ERROR_SYSCALL {
            let queued = TLSError.queued(context.openSSL)
            let why = errorNumber == 0 ? "the peer closed the connection" : ReachabilityError.errnoName(errorNumber)
            return .tls("handshake failed", detail: "TLS handshake: \(why)\(queued == "no detail" ? "" : " (\(queued))")")
        }
        return .tls("handshake failed", detail: "TLS handshake: \(TLSError.queued(context.openSSL))")
    }

    /// The reason's word for an `X509_V_ERR_*` verdict.
    package static func certificateKind(_ verdict: Int32) -> String {
        switch verdict {
        case X509_V_ERR_CERT_HAS_EXPIRED: "certificate expired"
        case X509_V_ERR_CERT_NOT_YET_VALID: "certificate not yet valid"
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH: "wrong host name"
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
             X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
             X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_CERT_UNTRUSTED, X509_V_ERR_CERT_REJECTED:
            "certificate not trusted"
        case X509_V_ERR_CERT_REVOKED: "certificate revoked"
        default: "certificate not valid"
        }
    }

    package func send(_ bytes: [UInt8]) throws(ProbeFailure) {
        var sent = 0
        while sent < bytes.count {
            openSSL.ERR_clear_error()
            let count = bytes[sent...].withUnsafeBytes { openSSL.SSL_write(ssl, $0.baseAddress, Int32(clamping: $0.count)) }
            if count > 0 {
                sent += Int(count)
                continue
            }
            try waitOrFail(openSSL.SSL_get_error(ssl, count), errno: errno, doing: "send")
        }
    }

    package func receive(into buffer: inout [UInt8], limit: Int) throws(ProbeFailure) -> Bool {
        while true {
            var chunk = [UInt8](repeating: 0, count: max(1, min(limit, 4096)))
            openSSL.ERR_clear_error()
            let count = chunk.withUnsafeMutableBytes { openSSL.SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                buffer += chunk[0..<Int(count)]
                return true
            }
            let code = openSSL.SSL_get_error(ssl, count)
            let errorNumber = errno
            // A close (close_notify, or a plain EOF: `SSL_OP_IGNORE_UNEXPECTED_EOF`) ends the answer.
            if code == SSL_ERROR_ZERO_RETURN || (code == SSL_ERROR_SYSCALL && errorNumber == 0) { return false }
            try waitOrFail(code, errno: errorNumber, doing: "waiting for the answer")
        }
    }

    /// Waits when OpenSSL would block, else throws what went wrong.
    private func waitOrFail(_ code: Int32, errno errorNumber: Int32, doing what: String) throws(ProbeFailure) {
        switch code {
        case SSL_ERROR_WANT_READ: try connection.wait(for: Int16(POLLIN), doing: what)
        case SSL_ERROR_WANT_WRITE: try connection.wait(for: Int16(POLLOUT), doing: what)
        case SSL_ERROR_SYSCALL: throw .failed("\(what): \(ReachabilityError.errnoName(errorNumber))")
        // A TLS error after the handshake (a bad record, an alert): the peer broke the session.
        default: throw .tls("connection failed", detail: "\(what): \(TLSError.queued(context.openSSL))")
        }
    }
}
