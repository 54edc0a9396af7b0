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

/// Parsing address strings and socket addresses into `IPAddress`, and the errors of bad ones.
final class IPAddressTests: XCTestCase {
    // MARK: - Strings

    func testInit_ipv4() throws {
        let address = try IPAddress("192.0.2.1")
        XCTAssertEqual(address.family, .ipv4)
        XCTAssertEqual(address.bytes, [192, 0, 2, 1])
        XCTAssertNil(address.scope)
        XCTAssertFalse(address.isUnspecified)
        XCTAssertEqual(address.addressString, "192.0.2.1")
        XCTAssertEqual(address.description, "192.0.2.1")
    }

    func testInit_ipv6_isWrittenInCanonicalForm() throws {
        let address = try IPAddress("2001:DB8:0:0:0:0:0:1")
        XCTAssertEqual(address.family, .ipv6)
        XCTAssertEqual(address.bytes, [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1])
        XCTAssertNil(address.scope)
        XCTAssertEqual(address.description, "2001:db8::1")
        XCTAssertEqual(try IPAddress("::1").bytes, [UInt8](repeating: 0, count: 15) + [1])
        XCTAssertEqual(try IPAddress("::ffff:192.0.2.1").description, "::ffff:192.0.2.1")
    }

    func testInit_zeroAddresses_areUnspecified() throws {
        let v4 = try IPAddress("0.0.0.0")
        XCTAssertEqual(v4.family, .ipv4)
        XCTAssertTrue(v4.isUnspecified)
        XCTAssertEqual(v4.description, "0.0.0.0")
        let v6 = try IPAddress("::")
        XCTAssertEqual(v6.family, .ipv6)
        XCTAssertTrue(v6.isUnspecified)
        XCTAssertEqual(v6.description, "::")
        XCTAssertTrue(try IPAddress("0:0:0:0:0:0:0:0").isUnspecified)
        XCTAssertFalse(try IPAddress("::1").isUnspecified)
        XCTAssertFalse(try IPAddress("0.0.0.1").isUnspecified)
    }

    func testInit_scopeByName() throws {
        let address = try IPAddress("fe80::1%eth0")
        XCTAssertEqual(address.family, .ipv6)
        XCTAssertEqual(address.scope, .name("eth0"))
        XCTAssertEqual(address.addressString, "fe80::1")
        XCTAssertEqual(address.description, "fe80::1%eth0")
        XCTAssertEqual(try IPAddress("fe80::1%v0").scope, .name("v0"))
        XCTAssertEqual(try IPAddress("fe80::1%enp0s31f6.100").scope, .name("enp0s31f6.100"))
    }

    func testInit_scopeByIndex() throws {
        let address = try IPAddress("fe80::1%3")
        XCTAssertEqual(address.scope, .index(3))
        XCTAssertEqual(address.description, "fe80::1%3")
        XCTAssertEqual(IPAddress.Scope.index(3).description, "3")
        XCTAssertEqual(IPAddress.Scope.name("eth0").description, "eth0")
    }

    func testInit_scopeOfTheLongestInterfaceName_isAccepted() throws {
        let name = String(repeating: "a", count: 15)  // IFNAMSIZ - 1
        XCTAssertEqual(try IPAddress("fe80::1%\(name)").scope, .name(name))
    }

    func testEquality_isOfTheAddressAndScope() throws {
        XCTAssertEqual(try IPAddress("::1"), try IPAddress("0:0::1"))
        XCTAssertNotEqual(try IPAddress("fe80::1%3"), try IPAddress("fe80::1"))
        XCTAssertNotEqual(try IPAddress("fe80::1%3"), try IPAddress("fe80::1%eth0"))
        XCTAssertNotEqual(try IPAddress("0.0.0.0"), try IPAddress("::"))
    }

    /// The bytes are kept inline: what goes in by either initialiser comes out the same, in
    /// network order, and equal bytes hash alike whichever way they came.
    func testBytes_roundTripThroughTheInlineStorage() throws {
        let v4 = try IPAddress("192.0.2.255")
        XCTAssertEqual(v4.bytes, [192, 0, 2, 255])
        XCTAssertEqual(v4.withUnsafeBytes { Array($0) }, [192, 0, 2, 255])
        let v6 = try IPAddress("2001:db8::ff01")
        XCTAssertEqual(v6.bytes, [0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 10) + [0xff, 0x01])
        let rebuilt = IPAddress(family: .ipv6, bytes: v6.bytes)
        XCTAssertEqual(rebuilt, v6)
        XCTAssertEqual(rebuilt.hashValue, v6.hashValue)
        XCTAssertEqual(rebuilt.description, "2001:db8::ff01")
        XCTAssertTrue(try IPAddress("fe80::1%eth0").sameBytes(as: try IPAddress("fe80::1")), "scope aside")
        XCTAssertFalse(try IPAddress("0.0.0.1").sameBytes(as: try IPAddress("::1")), "families differ")
        XCTAssertFalse(try IPAddress("255.255.255.255").isUnspecified)
        XCTAssertTrue(IPAddress(family: .ipv4, bytes: [0, 0, 0, 0]).isUnspecified)
    }

    // MARK: - Rejected strings

    private func assertInvalid(
        _ text: String, reason expected: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try IPAddress(text), file: file, line: line) { error in
            guard case .invalidAddress(let shown, let reason)? = error as? ReachabilityError else {
                return XCTFail("expected invalidAddress, got \(error)", file: file, line: line)
            }
            XCTAssertTrue(reason.contains(expected), "reason '\(reason)' lacks '\(expected)'", file: file, line: line)
            XCTAssertFalse(shown.utf8.contains(0), "the error repeats a NUL byte", file: file, line: line)
            let description = (error as? ReachabilityError)?.description ?? ""
            XCTAssertTrue(description.hasPrefix("invalid address '"), description, file: file, line: line)
            XCTAssertTrue(description.contains(reason), description, file: file, line: line)
        }
    }

    func testInit_rejectsEmpty() {
        assertInvalid("", reason: "empty")
    }

    func testInit_rejectsNULByte() {
        assertInvalid("192.0.2.1\0", reason: "NUL")
        assertInvalid("\0", reason: "NUL")
        XCTAssertThrowsError(try IPAddress("1.2.3.4\0evil")) { error in
            XCTAssertEqual(error as? ReachabilityError, .invalidAddress("1.2.3.4\\u{0}evil", reason: "it contains a NUL byte"))
        }
    }

    func testInit_rejectsGarbage() {
        for text in ["garbage", "example.com", "localhost", "1.2.3.4.5", "256.0.0.1", "12345::gg", ":::", "-1", "%eth0"] {
            XCTAssertThrowsError(try IPAddress(text), text) { error in
                guard case .invalidAddress? = error as? ReachabilityError else { return XCTFail("\(text): \(error)") }
            }
        }
        assertInvalid("garbage", reason: "neither an IPv4 nor an IPv6 address")
    }

    func testInit_rejectsIPv4WithScope() {
        assertInvalid("192.0.2.1%eth0", reason: "IPv4 address takes no '%scope'")
        assertInvalid("192.0.2.1%3", reason: "IPv4 address takes no '%scope'")
    }

    func testInit_rejectsEmptyScope() {
        assertInvalid("fe80::1%", reason: "scope after '%' is empty")
    }

    func testInit_rejectsOverLongScope() {
        let name = String(repeating: "a", count: 16)
        assertInvalid("fe80::1%\(name)", reason: "longer than an interface name can be")
    }

    func testInit_rejectsScopeThatIsNoInterfaceName() {
        assertInvalid("fe80::1%eth 0", reason: "not an interface name or index")
        assertInvalid("fe80::1%a/b", reason: "not an interface name or index")
    }

    func testInit_rejectsShortIPv4() {
        assertInvalid("1.2.3", reason: "neither an IPv4 nor an IPv6 address")
    }

    func testInit_rejectsTwoDoubleColons() {
        assertInvalid("::1::2", reason: "neither an IPv4 nor an IPv6 address")
    }

    func testInit_rejectsLeadingAndTrailingSpaces() {
        for text in [" 192.0.2.1", "192.0.2.1 ", " ::1", "::1 ", "\t::1", "192.0.2.1\n"] {
            XCTAssertThrowsError(try IPAddress(text), "'\(text)'") { error in
                guard case .invalidAddress? = error as? ReachabilityError else { return XCTFail("\(text): \(error)") }
            }
        }
        assertInvalid("fe80::1%eth0 ", reason: "not an interface name or index")
    }

    /// Known library bug (reported, not fixed here): only a NUL byte goes through `ReachabilityError.printable`;
    /// other control characters reach the error text raw, so `reachability check $'192.0.2.1\n'` prints an error
    /// of two lines, though bad input must get one line on stderr (cli.md) and `printable` exists for exactly that.
    func testInit_rejectsControlCharacters_withAOneLineError() {
        for text in ["192.0.2.1\n", "::1\r\nX-Injected: 1", "fe80::1%eth0\t", "\u{1b}[31m::1"] {
            XCTAssertThrowsError(try IPAddress(text), text.debugDescription) { error in
                let description = (error as? ReachabilityError)?.description ?? ""
                XCTAssertFalse(description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
                               "control characters in the error for \(text.debugDescription): \(description.debugDescription)")
            }
        }
    }

    // MARK: - Socket addresses

    private static func sockaddrIn(_ text: String, port: UInt16 = 443) -> sockaddr_in {
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = port.bigEndian
        XCTAssertEqual(inet_pton(AF_INET, text, &sin.sin_addr), 1)
        return sin
    }

    private static func sockaddrIn6(_ text: String, scopeID: UInt32 = 0) -> sockaddr_in6 {
        var sin6 = sockaddr_in6()
        sin6.sin6_family = sa_family_t(AF_INET6)
        sin6.sin6_port = UInt16(443).bigEndian
        sin6.sin6_scope_id = scopeID
        XCTAssertEqual(inet_pton(AF_INET6, text, &sin6.sin6_addr), 1)
        return sin6
    }

    /// Lends `value` as a `sockaddr` pointer, with its true length.
    private static func withSockaddr<T, R>(_ value: T, _ body: (UnsafePointer<sockaddr>, Int) throws -> R) rethrows -> R {
        var value = value
        return try withUnsafePointer(to: &value) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, MemoryLayout<T>.size) }
        }
    }

    func testInitSockaddr_in_roundTrips() throws {
        for text in ["192.0.2.1", "0.0.0.0", "127.0.0.1", "255.255.255.255"] {
            let address = try Self.withSockaddr(Self.sockaddrIn(text)) { try IPAddress(sockaddr: $0, length: $1) }
            XCTAssertEqual(address, try IPAddress(text))
            XCTAssertEqual(address.description, text)
            XCTAssertNil(address.scope)
        }
    }

    func testInitSockaddr_in6_roundTrips() throws {
        for text in ["2001:db8::1", "::", "::1", "fe80::1"] {
            let address = try Self.withSockaddr(Self.sockaddrIn6(text)) { try IPAddress(sockaddr: $0, length: $1) }
            XCTAssertEqual(address, try IPAddress(text))
            XCTAssertEqual(address.description, text)
            XCTAssertNil(address.scope, "a zero sin6_scope_id is no scope")
        }
    }

    func testInitSockaddr_in6WithScopeID_keepsItAsIndexScope() throws {
        let address = try Self.withSockaddr(Self.sockaddrIn6("fe80::1", scopeID: 3)) { try IPAddress(sockaddr: $0, length: $1) }
        XCTAssertEqual(address.scope, .index(3))
        XCTAssertEqual(address.description, "fe80::1%3")
        XCTAssertEqual(address, try IPAddress("fe80::1%3"))
    }

    func testInitSockaddr_withoutLength_readsByFamily() throws {
        let v4 = try Self.withSockaddr(Self.sockaddrIn("198.51.100.7")) { pointer, _ in try IPAddress(sockaddr: pointer) }
        XCTAssertEqual(v4.description, "198.51.100.7")
        let v6 = try Self.withSockaddr(Self.sockaddrIn6("2001:db8::7", scopeID: 9)) { pointer, _ in try IPAddress(sockaddr: pointer) }
        XCTAssertEqual(v6.description, "2001:db8::7%9")
    }

    func testInitSockaddr_inStorage_isReadByItsFamily() throws {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.storeBytes(of: Self.sockaddrIn6("2001:db8::42"), as: sockaddr_in6.self)
        }
        let address = try Self.withSockaddr(storage) { try IPAddress(sockaddr: $0, length: $1) }
        XCTAssertEqual(address.description, "2001:db8::42")
    }

    private func assertInvalidSocketAddress(
        _ body: () throws -> IPAddress, reason expected: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard case .invalidSocketAddress(let reason)? = error as? ReachabilityError else {
                return XCTFail("expected invalidSocketAddress, got \(error)", file: file, line: line)
            }
            XCTAssertTrue(reason.contains(expected), "reason '\(reason)' lacks '\(expected)'", file: file, line: line)
            let description = (error as? ReachabilityError)?.description ?? ""
            XCTAssertTrue(description.hasPrefix("invalid socket address: "), description, file: file, line: line)
        }
    }

    func testInitSockaddr_rejectsAFUNIX() {
        var sun = sockaddr_un()
        sun.sun_family = sa_family_t(AF_UNIX)
        assertInvalidSocketAddress({ try Self.withSockaddr(sun) { try IPAddress(sockaddr: $0, length: $1) } },
                                   reason: "family \(AF_UNIX) is neither AF_INET (\(AF_INET)) nor AF_INET6 (\(AF_INET6))")
        var unspecified = sockaddr()
        unspecified.sa_family = sa_family_t(AF_UNSPEC)
        assertInvalidSocketAddress({ try Self.withSockaddr(unspecified) { try IPAddress(sockaddr: $0, length: $1) } },
                                   reason: "family 0")
    }

    func testInitSockaddr_rejectsTooShortLength() {
        assertInvalidSocketAddress({ try Self.withSockaddr(Self.sockaddrIn("192.0.2.1")) { pointer, _ in try IPAddress(sockaddr: pointer, length: 8) } },
                                   reason: "length 8 is shorter than sockaddr_in (16)")
        assertInvalidSocketAddress({ try Self.withSockaddr(Self.sockaddrIn6("::1")) { pointer, _ in try IPAddress(sockaddr: pointer, length: 16) } },
                                   reason: "length 16 is shorter than sockaddr_in6 (28)")
        assertInvalidSocketAddress({ try Self.withSockaddr(Self.sockaddrIn6("::1")) { pointer, _ in try IPAddress(sockaddr: pointer, length: 0) } },
                                   reason: "shorter than sockaddr_in6")
    }
}
