@testable import NetworkReachabilityCore
import XCTest
#if canImport(Glibc)
import Glibc
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
#endif

/// `https://` probe values: the URL, the CA file, relative redirects, and the TLS verdict words.
final class HTTPSProbeTests: XCTestCase {
    func testHTTPSURL_defaultPort443_andItsAuthority() throws {
        let probe = try ConnectivityProbe(url: "https://api.example.com/health")
        XCTAssertEqual([probe.kind.rawValue, probe.host, "\(probe.port)", probe.path, probe.authority],
                       ["https", "api.example.com", "443", "/health", "api.example.com"])
        let other = try ConnectivityProbe(url: "HTTPS://[2001:db8::1]:8443", expecting: "ok")
        XCTAssertEqual([other.path, other.authority], ["/", "[2001:db8::1]:8443"])
        XCTAssertNil(other.caFile)
    }

    func testRelativeRedirect_keepsTheHTTPSScheme() throws {
        let probe = try ConnectivityProbe(url: "https://h:8443/a/b")
        XCTAssertEqual(ProbeVerdict.absolute("/login", base: probe), "https://h:8443/login")
        XCTAssertEqual(ProbeVerdict.absolute("//portal/", base: probe), "https://portal/")
    }

    func testCAFile_checkedWhenTheProbeIsMade() throws {
        let path = "/tmp/nrx-ca-\(getpid()).pem"
        defer { unlink(path) }
        XCTAssertTrue(writeFile(path, "junk\n-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"))
        XCTAssertEqual(try ConnectivityProbe(url: "https://h/", caFile: path).caFile, path)
        XCTAssertNotEqual(try ConnectivityProbe(url: "https://h/", caFile: path), try ConnectivityProbe(url: "https://h/"),
                          "another trust is another prober")
        let failures: [(String, String?, String)] = [
            ("http://h/", path, "needs an https:// probe"),
            ("https://h/", "/nonexistent/ca.pem", "cannot be read: ENOENT"),
            ("https://h/", "/dev/null", "holds no PEM certificate"),
        ]
        for (url, file, reason) in failures {
            XCTAssertThrowsError(try ConnectivityProbe(url: url, caFile: file)) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(error)")
                XCTAssertFalse("\(error)".contains("(give http://"), "not a URL error: \(error)")
            }
        }
    }

    /// The file is read in chunks: a certificate whose marker straddles two is found, and one
    /// after the read limit is not.
    func testCAFile_markerAcrossAChunkBoundary_isFound_pastTheLimit_isNot() throws {
        let path = "/tmp/nrx-ca-chunks-\(getpid()).pem"
        defer { unlink(path) }
        let certificate = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
        XCTAssertTrue(writeFile(path, String(repeating: "#", count: ProbeCAFile.chunkBytes - 10) + certificate))
        XCTAssertEqual(try ConnectivityProbe(url: "https://h/", caFile: path).caFile, path)
        XCTAssertTrue(writeFile(path, String(repeating: "#", count: ProbeCAFile.readLimit) + certificate))
        XCTAssertThrowsError(try ConnectivityProbe(url: "https://h/", caFile: path)) { error in
            XCTAssertTrue("\(error)".contains("holds no PEM certificate"), "\(error)")
        }
    }

    func testCertificateVerdicts_haveTheirWords() {
        XCTAssertEqual(TLSConnection.certificateKind(X509_V_ERR_CERT_HAS_EXPIRED_VALUE), "certificate expired")
        XCTAssertEqual(TLSConnection.certificateKind(X509_V_ERR_HOSTNAME_MISMATCH_VALUE), "wrong host name")
        XCTAssertEqual(TLSConnection.certificateKind(X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT_VALUE), "certificate not trusted")
        XCTAssertEqual(TLSConnection.certificateKind(X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY_VALUE), "certificate not trusted")
        XCTAssertEqual(ProbeFailure.tls("wrong host name", detail: "x").reason, "TLS: wrong host name")
    }

    private func writeFile(_ path: String, _ text: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == text.utf8.count
    }
}

// The X509_V_ERR_* values (OpenSSL's x509_vfy.h), so the test needs no import of OpenSSL.
private let X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY_VALUE: Int32 = 20
private let X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT_VALUE: Int32 = 18
private let X509_V_ERR_CERT_HAS_EXPIRED_VALUE: Int32 = 10
private let X509_V_ERR_HOSTNAME_MISMATCH_VALUE: Int32 = 62
