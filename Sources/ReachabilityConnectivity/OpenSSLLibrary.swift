import ReachabilitySystem
import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// OpenSSL 3, loaded at the first `https://` probe or captive-portal API fetch of the process.
///
/// The libraries are opened with `dlopen` by their versioned names (`libcrypto.so.3`,
/// `libssl.so.3`: the ABI the headers describe), never linked: a process that probes no
/// `https://` URL maps neither (their relocated pages cost about 1.7 MiB resident), and runs on a
/// machine where libssl3 is not installed. The first use loads them, once for the process; a
/// failure is kept too, so every later probe fails the same way without asking the loader again.
package final class OpenSSLLibrary: @unchecked Sendable {  // `let`s only, set once before it is shared
    /// The functions, resolved by name from the two libraries.
    package let functions: COpenSSL_Functions

    private init(functions: COpenSSL_Functions) { self.functions = functions }

    private static let loaded = LockedState<Result<OpenSSLLibrary, OpenSSLUnavailable>?>(nil)

    /// The loaded library; loads it at the first call.
    ///
    /// - Throws: `OpenSSLUnavailable` when a library is missing or too old.
    package static func shared() throws(OpenSSLUnavailable) -> OpenSSLLibrary {
        try loaded.withLock { loaded in
            if let loaded { return loaded }
            let result = load()
            loaded = result
            return result
        }.get()
    }

    private static func load() -> Result<OpenSSLLibrary, OpenSSLUnavailable> {
        // libssl needs libcrypto: opening libcrypto first makes a missing one the error named.
        guard let crypto = dlopen(OpenSSLUnavailable.cryptoLibrary, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(OpenSSLUnavailable(library: OpenSSLUnavailable.cryptoLibrary, loaderMessage: loaderError()))
        }
        guard let ssl = dlopen(OpenSSLUnavailable.sslLibrary, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(OpenSSLUnavailable(library: OpenSSLUnavailable.sslLibrary, loaderMessage: loaderError()))
        }
        let table = UnsafeMutablePointer<COpenSSL_Functions>.allocate(capacity: 1)
        defer { table.deallocate() }
        if let missing = COpenSSL_resolve(ssl, crypto, table) {
            return .failure(OpenSSLUnavailable(library: OpenSSLUnavailable.sslLibrary,
                                               loaderMessage: "no function \(String(cString: missing))"))
        }
        // The handles stay open for the process: contexts and connections hold the libraries' code.
        return .success(OpenSSLLibrary(functions: table.pointee))
    }

    private static func loaderError() -> String {
        dlerror().map { String(cString: $0) } ?? "not found"
    }
}

/// OpenSSL 3 could not be loaded for an `https://` probe or a captive-portal API fetch: the
/// package that holds it is not installed (or holds an older OpenSSL).
package struct OpenSSLUnavailable: Error, Equatable {
    package static let sslLibrary = "libssl.so.3"
    package static let cryptoLibrary = "libcrypto.so.3"
    /// What a user installs: the package names of the distributions the project supports.
    package static let packages = "libssl3 (Debian, Ubuntu) or openssl-libs (Fedora, RHEL, Amazon Linux)"

    /// The library that failed to load, `libssl.so.3` or `libcrypto.so.3`.
    package let library: String
    /// The dynamic loader's words (`cannot open shared object file: No such file or directory`).
    package let loaderMessage: String

    /// The connectivity reason's kind: what to install, in a few words.
    package static let kind = "OpenSSL 3 not installed: install \(packages)"

    /// The probe's failure: `TLS: OpenSSL 3 not installed: install libssl3 (Debian, Ubuntu) or ...`.
    package var probeFailure: ProbeFailure {
        .tls(Self.kind, detail: "https:// needs OpenSSL 3: \(loaderMessage)")
    }
}
