import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// Every error says what failed, on what, and what to do.
final class ReachabilityErrorTests: XCTestCase {
    func testInvalidAddress() {
        let error = ReachabilityError.invalidAddress("1.2.3", reason: "it is neither an IPv4 nor an IPv6 address")
        XCTAssertEqual(error.description, "invalid address '1.2.3': it is neither an IPv4 nor an IPv6 address "
                       + "(give an IPv4 address such as 192.0.2.1, or an IPv6 address such as 2001:db8::1 or fe80::1%eth0)")
    }

    func testInvalidSocketAddress() {
        let error = ReachabilityError.invalidSocketAddress(reason: "family 1 is neither AF_INET (2) nor AF_INET6 (10)")
        XCTAssertEqual(error.description, "invalid socket address: family 1 is neither AF_INET (2) nor AF_INET6 (10) "
                       + "(pass a sockaddr_in or sockaddr_in6 with its family set)")
    }

    func testInvalidHostName_makesControlCharactersVisible() {
        let error = ReachabilityError.invalidHostName("bad\u{0}name\n", reason: "it contains a NUL byte")
        XCTAssertEqual(error.description, "invalid host name 'bad\\u{0}name\\u{a}': it contains a NUL byte")
        XCTAssertFalse(error.description.contains("\n"))
    }

    func testNamespaceNotFound_saysHowToMakeOne() {
        let error = ReachabilityError.namespaceNotFound(path: "/run/netns/blue")
        XCTAssertEqual(error.description, "network namespace '/run/netns/blue' does not exist "
                       + "(list them with 'ip netns list', make one with 'ip netns add NAME')")
    }

    func testNamespaceNotEnterable_EPERM_saysToRunAsRoot() {
        let error = ReachabilityError.namespaceNotEnterable(path: "/run/netns/blue", function: "setns", errno: EPERM)
        XCTAssertEqual(error.description, "cannot enter network namespace '/run/netns/blue': setns: EPERM "
                       + "(\(String(cString: strerror(EPERM))); entering it needs CAP_SYS_ADMIN in the user namespace that owns it: run as root)")
    }

    func testNamespaceNotEnterable_EACCES_saysToRunAsRoot() {
        let error = ReachabilityError.namespaceNotEnterable(path: "/proc/1/ns/net", function: "open", errno: EACCES)
        XCTAssertTrue(error.description.hasPrefix("cannot enter network namespace '/proc/1/ns/net': open: EACCES ("))
        XCTAssertTrue(error.description.hasSuffix("; entering it needs CAP_SYS_ADMIN in the user namespace that owns it: run as root)"))
    }

    func testNamespaceNotEnterable_otherErrno_hasNoHint() {
        let error = ReachabilityError.namespaceNotEnterable(path: "/tmp/x", function: "setns", errno: EINVAL)
        XCTAssertEqual(error.description, "cannot enter network namespace '/tmp/x': setns: EINVAL (\(String(cString: strerror(EINVAL))))")
    }

    func testNetlink() {
        let error = ReachabilityError.netlink(function: "nl_connect", code: 5, message: "Out of memory")
        XCTAssertEqual(error.description, "netlink failure in nl_connect: Out of memory (libnl error 5)")
    }

    func testSystem() {
        let error = ReachabilityError.system(function: "pthread_create", errno: ENOMEM)
        XCTAssertEqual(error.description, "pthread_create failed: ENOMEM (\(String(cString: strerror(ENOMEM))))")
    }

    func testErrnoName_knownAndUnknown() {
        let known: [(Int32, String)] = [
            (EPERM, "EPERM"), (ENOENT, "ENOENT"), (EACCES, "EACCES"), (EINVAL, "EINVAL"), (ENOMEM, "ENOMEM"),
            (EBADF, "EBADF"), (ENOTDIR, "ENOTDIR"), (EMFILE, "EMFILE"), (ENFILE, "ENFILE"),
            (ENETUNREACH, "ENETUNREACH"), (EHOSTUNREACH, "EHOSTUNREACH"), (ENOBUFS, "ENOBUFS"),
        ]
        for (code, name) in known {
            XCTAssertEqual(ReachabilityError.errnoName(code), name)
        }
        XCTAssertEqual(ReachabilityError.errnoName(9999), "errno 9999")
    }

    func testPrintable() {
        XCTAssertEqual(ReachabilityError.printable("plain éü"), "plain éü")
        XCTAssertEqual(ReachabilityError.printable("a\u{0}b\u{1f}c\u{7f}"), "a\\u{0}b\\u{1f}c\\u{7f}")
        XCTAssertEqual(ReachabilityError.printable("\t"), "\\u{9}")
    }

    func testEquatable() {
        XCTAssertEqual(ReachabilityError.namespaceNotFound(path: "/a"), .namespaceNotFound(path: "/a"))
        XCTAssertNotEqual(ReachabilityError.namespaceNotFound(path: "/a"), .namespaceNotFound(path: "/b"))
        XCTAssertNotEqual(ReachabilityError.invalidAddress("x", reason: "r"), .invalidSocketAddress(reason: "r"))
    }

    func testIsAnError_thatPrintsItsDescription() {
        let error: any Error = ReachabilityError.namespaceNotFound(path: "/run/netns/x")
        XCTAssertEqual("\(error)", ReachabilityError.namespaceNotFound(path: "/run/netns/x").description)
    }
}
