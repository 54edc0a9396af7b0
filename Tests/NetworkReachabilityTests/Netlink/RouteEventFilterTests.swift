import XCTest
import ReachabilityModel
import ReachabilityNetlink
#if canImport(Glibc)
import Glibc
#endif

/// `RouteEventFilter` run by the kernel: a netlink socket with the program attached
/// (`RouteEventWatch`) receives hand-made messages from a second socket of this process, and what
/// arrives is what the program passed. A lone route message about no watched destination is
/// dropped; everything it cannot read to the end passes.
final class RouteEventFilterTests: XCTestCase {
    private var receiver: Int32 = -1
    private var sender: Int32 = -1
    private var port: UInt32 = 0

    override func setUpWithError() throws {
        receiver = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0 /* NETLINK_ROUTE */)
        sender = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue), 0)
        XCTAssertGreaterThanOrEqual(receiver, 0)
        XCTAssertGreaterThanOrEqual(sender, 0)
        // Bound with port 0: the kernel picks one, read back for the sender to address.
        var address = Self.netlinkAddress(port: 0)
        XCTAssertEqual(address.withUnsafeMutableBytes { bind(receiver, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), 12) }, 0)
        var length = socklen_t(12)
        XCTAssertEqual(address.withUnsafeMutableBytes { getsockname(receiver, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length) }, 0)
        port = address.withUnsafeBytes { $0.load(fromByteOffset: 4, as: UInt32.self) }
    }

    override func tearDown() {
        close(receiver)
        close(sender)
    }

    func testLoneRouteMessages_passOnlyOverAWatchedDestination() {
        let watch = RouteEventWatch(descriptor: receiver)
        watch.include(Fixture.ip("10.9.0.5"))
        watch.include(Fixture.ip("2001:db8:9::5"))
        XCTAssertFalse(watch.passesEverything)

        let cases: [(String, [UInt8], Bool)] = [
            ("beside, 30 bits shared", route(.ipv4, "10.9.0.8", 30), false),
            ("over it, /30", route(.ipv4, "10.9.0.4", 30), true),
            ("over it, /12", route(.ipv4, "10.0.0.0", 12), true),
            ("the /32 next to it", route(.ipv4, "10.9.0.4", 32), false),
            ("its /32", route(.ipv4, "10.9.0.5", 32), true),
            ("a default route", route(.ipv4, nil, 0), true),
            ("over a default-route probe", route(.ipv4, "11.22.33.0", 24), true),
            ("a deletion beside", route(.ipv4, "198.51.100.0", 24, type: 25), false),
            ("RTA_DST after three attributes, beside", route(.ipv4, "198.51.100.0", 24, attributesBefore: 3), false),
            ("RTA_DST past the attributes walked", route(.ipv4, "198.51.100.0", 24, attributesBefore: 4), true),
            ("IPv6 beside, in the last word", route(.ipv6, "2001:db8:9::8", 126), false),
            ("IPv6 over it, /126", route(.ipv6, "2001:db8:9::4", 126), true),
            ("IPv6 over it, /33", route(.ipv6, "2001:db8::", 33), true),
            ("IPv6 beside, in the second word", route(.ipv6, "2001:db8:a::", 47), false),
            ("IPv6 beside, in the first word", route(.ipv6, "2001:db9::", 32), false),
            ("an IPv6 default route", route(.ipv6, nil, 0), true),
            ("a link message", route(.ipv4, "198.51.100.0", 24, type: 16), true),
            ("two messages beside, in one datagram", route(.ipv4, "198.51.100.0", 24) + route(.ipv4, "198.51.101.0", 24), true),
            ("a message longer than its datagram", Array(route(.ipv4, "198.51.100.0", 24).dropLast(4)), true),
            ("an attribute too short for an address", route(.ipv4, "198.51.100.0", 24, destinationLength: 6), true),
        ]
        for (what, message, passes) in cases {
            XCTAssertEqual(deliver(message), passes, what)
        }
    }

    func testPastItsCapacity_everythingPasses_untilNarrowed() {
        let watch = RouteEventWatch(descriptor: receiver)
        // The largest program: every destination IPv6 (its compare is the longest).
        for index in 0..<RouteEventWatch.capacity {
            watch.include(Fixture.ip("2001:db8:77::\(String(index + 1, radix: 16))"))
        }
        XCTAssertFalse(watch.passesEverything, "the kernel refused the program for \(RouteEventWatch.capacity) destinations")
        XCTAssertFalse(deliver(route(.ipv4, "198.51.100.0", 24)))
        XCTAssertTrue(deliver(route(.ipv6, "2001:db8:77::40", 128)))

        watch.include(Fixture.ip("10.9.0.5"))
        XCTAssertTrue(watch.passesEverything)
        XCTAssertTrue(deliver(route(.ipv4, "198.51.100.0", 24)), "past its capacity")

        watch.narrow(to: [Fixture.ip("10.9.0.5")])
        XCTAssertFalse(watch.passesEverything)
        XCTAssertFalse(deliver(route(.ipv4, "198.51.100.0", 24)))
        XCTAssertTrue(deliver(route(.ipv4, "10.9.0.0", 24)))
        XCTAssertFalse(deliver(route(.ipv6, "2001:db8:77::40", 128)), "narrowed away")
    }

    // MARK: - Messages

    /// Sends `datagram` to the receiver and tells whether it arrived.
    private func deliver(_ datagram: [UInt8]) -> Bool {
        var address = Self.netlinkAddress(port: port)
        let sent = datagram.withUnsafeBytes { bytes in
            address.withUnsafeMutableBytes {
                sendto(sender, bytes.baseAddress, bytes.count, 0, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), 12)
            }
        }
        XCTAssertEqual(sent, datagram.count, "sendto: errno \(errno)")
        var buffer = [UInt8](repeating: 0, count: 4096)
        let received = recv(receiver, &buffer, buffer.count, 0)
        return received > 0
    }

    /// `struct sockaddr_nl`: the family, padding, the port, no groups.
    private static func netlinkAddress(port: UInt32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 12)
        withUnsafeBytes(of: UInt16(AF_NETLINK)) { bytes.replaceSubrange(0..<2, with: $0) }
        withUnsafeBytes(of: port) { bytes.replaceSubrange(4..<8, with: $0) }
        return bytes
    }

    /// A route message as the kernel writes one: the header, `rtmsg`, RTA_TABLE (and more
    /// attributes when asked), then RTA_DST unless the prefix is empty.
    private func route(_ family: IPAddress.Family, _ destination: String?, _ length: UInt8, type: UInt16 = 24,
                       attributesBefore: Int = 1, destinationLength: Int? = nil) -> [UInt8] {
        var body: [UInt8] = [family == .ipv4 ? 2 : 10, length, 0, 0, 254, 3, 0, 1, 0, 0, 0, 0]
        let others: [UInt16] = [15 /* RTA_TABLE */, 6 /* RTA_PRIORITY */, 4 /* RTA_OIF */, 7 /* RTA_PREFSRC */]
        for index in 0..<attributesBefore {
            body += attribute(others[index % others.count], value: [254, 0, 0, 0])
        }
        if let destination {
            let bytes = Fixture.ip(destination).bytes
            body += attribute(1 /* RTA_DST */, value: Array(bytes.prefix(destinationLength.map { $0 - 4 } ?? bytes.count)))
        }
        var header: [UInt8] = []
        withUnsafeBytes(of: UInt32(16 + body.count)) { header += $0 }
        withUnsafeBytes(of: type) { header += $0 }
        header += [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]  // flags, sequence, port
        return header + body
    }

    private func attribute(_ type: UInt16, value: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt16(4 + value.count)) { bytes += $0 }
        withUnsafeBytes(of: type) { bytes += $0 }
        bytes += value
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }
}
