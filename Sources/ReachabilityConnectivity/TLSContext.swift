import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import COpenSSL

/// An OpenSSL client context (`SSL_CTX`) for `https://` probes: TLS 1.2 at least, the peer's
/// certificate verified against the system's trust store or a CA file's roots.
///
/// Made at the first `https://` probe that trusts those roots and kept for the process (a
/// context loads its roots once; every probe of the process shares it, from any thread, as
/// OpenSSL allows once a context is set up). Nothing here runs, and OpenSSL is not loaded
/// (`OpenSSLLibrary`), until then: a process without an `https://` probe never touches TLS.
package final class TLSContext: @unchecked Sendable {  // the context is only read once made
    /// `SSL_CTX *`.
    package let pointer: OpaquePointer
    /// The library the context was made with.
    package let openSSL: OpenSSLLibrary

    static let contexts = LockedState<[String: TLSContext]>([:])

    private init(pointer: OpaquePointer, openSSL: OpenSSLLibrary) {
        self.pointer = pointer
        self.openSSL = openSSL
    }

    deinit { openSSL.functions.SSL_CTX_free(pointer) }

    /// The context trusting `caFile`'s roots, or the system's when nil; made at the first call.
    ///
    /// - Throws: `.tls` when OpenSSL cannot be loaded (`OpenSSLUnavailable`'s words, naming the
    ///   package to install) or cannot make it, or cannot use the CA file or the system's store.
    package static func shared(caFile: String?) throws(ProbeFailure) -> TLSContext {
        let openSSL: OpenSSLLibrary
        do throws(OpenSSLUnavailable) {
            openSSL = try OpenSSLLibrary.shared()
        } catch {
            throw error.probeFailure
        }
        let ssl = openSSL.functions
        let key = caFile ?? ""
        let result = contexts.withLock { contexts -> Result<TLSContext, ProbeFailure> in
            if let made = contexts[key] { return .success(made) }
            ssl.ERR_clear_error()
            guard let pointer = withUnsafePointer(to: ssl, { COpenSSL_makeClientContext($0) }) else {
                return .failure(.tls("handshake failed", detail: "cannot make a TLS context: \(TLSError.queued(openSSL))"))
            }
            let context = TLSContext(pointer: pointer, openSSL: openSSL)
            if let caFile {
                guard ssl.SSL_CTX_load_verify_locations(pointer, caFile, nil) == 1 else {
                    return .failure(.tls("CA file not usable", detail: "CA file '\(caFile)': \(TLSError.queued(openSSL))"))
                }
            } else if ssl.SSL_CTX_set_default_verify_paths(pointer) != 1 {
                return .failure(.tls("no trust store", detail: "the system's trust store: \(TLSError.queued(openSSL))"))
            }
            contexts[key] = context
            return .success(context)
        }
        return try result.get()
    }
}

/// OpenSSL's error queue (per thread) as text.
package enum TLSError {
    /// The errors queued on this thread, oldest first, and the queue emptied; `no detail` when none.
    package static func queued(_ openSSL: OpenSSLLibrary) -> String {
        var texts: [String] = []
        while true {
            let code = openSSL.functions.ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            openSSL.functions.ERR_error_string_n(code, &buffer, buffer.count)
            if texts.count < 3 { texts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        }
        return texts.isEmpty ? "no detail" : texts.joined(separator: "; ")
    }
}
