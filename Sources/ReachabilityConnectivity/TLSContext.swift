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
/// OpenSSL allows once a context is set up). Nothing here runs, and OpenSSL is not initialised,
/// until then: a process without an `https://` probe never touches TLS.
package final class TLSContext: @unchecked Sendable {  // the context is only read once made
    /// `SSL_CTX *`.
    package let pointer: OpaquePointer

    private static let contexts = LockedState<[String: TLSContext]>([:])

    /// How many contexts the process made: for tests ("nothing of TLS without an https:// probe").
    package static var made: Int { contexts.withLock { $0.count } }

    private init(pointer: OpaquePointer) { self.pointer = pointer }

    deinit { SSL_CTX_free(pointer) }

    /// The context trusting `caFile`'s roots, or the system's when nil; made at the first call.
    ///
    /// - Throws: `.tls` when OpenSSL cannot make it, or cannot use the CA file or the system's store.
    package static func shared(caFile: String?) throws(ProbeFailure) -> TLSContext {
        let key = caFile ?? ""
        let result = contexts.withLock { contexts -> Result<TLSContext, ProbeFailure> in
            if let made = contexts[key] { return .success(made) }
            ERR_clear_error()
            guard let pointer = COpenSSL_makeClientContext() else {
                return .failure(.tls("handshake failed", detail: "cannot make a TLS context: \(TLSError.queued())"))
            }
            let context = TLSContext(pointer: pointer)
            if let caFile {
                guard SSL_CTX_load_verify_locations(pointer, caFile, nil) == 1 else {
                    return .failure(.tls("CA file not usable", detail: "CA file '\(caFile)': \(TLSError.queued())"))
                }
            } else if SSL_CTX_set_default_verify_paths(pointer) != 1 {
                return .failure(.tls("no trust store", detail: "the system's trust store: \(TLSError.queued())"))
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
    package static func queued() -> String {
        var texts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            if texts.count < 3 { texts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        }
        return texts.isEmpty ? "no detail" : texts.joined(separator: "; ")
    }
}
