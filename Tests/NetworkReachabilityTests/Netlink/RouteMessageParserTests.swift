@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// RTM_NEWROUTE answers built by hand, read by `RouteMessageParser`.
final class RouteMessageParserTests: XCTestCase {
    typealias Builder = RouteMessageBuilder
    typealias Kind = RouteAttributes.Kind
    private let ip = Fixture.ip

    func testSinglePath_readsGatewayInterfaceSourceMetricAndTable() {
        var message = Builder()
        message.add(Kind.table, u32: 254)
        message.add(Kind.priority, u32: 100)
        message.add(Kind.preferredSource, address: "192.0.2.10")
        message.add(Kind.gateway, address: "192.0.2.1")
        message.add(Kind.outputInterface, u32: 3)
        XCTAssertEqual(message.parsed(), RouteEntry(
            type: .unicast, table: 254, prefixLength: 32, outputInterface: 3, gateways: [ip("192.0.2.1")],
            preferredSource: ip("192.0.2.10"), isLinkDown: false, metric: 100))
    }

    func testTable_isRTATable_whenPresent_elseRtmTable() {
        var message = Builder()
        message.table = 252  // RT_TABLE_COMPAT: what rtm_table says when the table does not fit
        message.add(Kind.table, u32: 1000)
        XCTAssertEqual(message.parsed()?.table, 1000)
        message.attributes = []
        message.table = 100
        XCTAssertEqual(message.parsed()?.table, 100)
        XCTAssertEqual(message.parsed()?.metric, 0, "no RTA_PRIORITY: metric 0")
    }

    func testIPv6_readsSixteenByteAddresses_andThePrefixLength() {
        var message = Builder()
        message.family = UInt8(AF_INET6)
        message.destinationLength = 64
        message.add(Kind.outputInterface, u32: 2)
        message.add(Kind.gateway, address: "fe80::1")
        message.add(Kind.preferredSource, address: "2001:db8::5")
        let entry = message.parsed()
        XCTAssertEqual(entry?.prefixLength, 64)
        XCTAssertEqual(entry?.outputInterface, 2)
        XCTAssertEqual(entry?.gateways, [ip("fe80::1")])
        XCTAssertEqual(entry?.preferredSource, ip("2001:db8::5"))
    }

    func testAddressOfTheWrongLength_isIgnored() {
        var message = Builder()
        message.add(Kind.outputInterface, u32: 2)
        message.add(Kind.gateway, address: "2001:db8::1")  // 16 bytes in an IPv4 route
        message.add(Kind.preferredSource, [10, 0, 0])
        let entry = message.parsed()
        XCTAssertEqual(entry?.gateways, [])
        XCTAssertNil(entry?.preferredSource)
        XCTAssertEqual(entry?.outputInterface, 2)
    }

    func testMultipath_gatewaysInOrder_andTheFirstInterfaceAboveZero() {
        var message = Builder()
        message.destinationLength = 0
        message.add(Kind.multipath,
            Builder.nexthop(interface: 0, Builder.attribute(Kind.gateway, ip("10.0.0.1").bytes))
            + Builder.nexthop(interface: 5, Builder.attribute(Kind.gateway, ip("10.0.1.1").bytes))
            + Builder.nexthop(interface: 6))
        let entry = message.parsed()
        XCTAssertEqual(entry?.gateways, [ip("10.0.0.1"), ip("10.0.1.1")])
        XCTAssertEqual(entry?.outputInterface, 5)
        XCTAssertEqual(entry?.isLinkDown, false)
    }

    /// Gateways handed in from an earlier answer never change what is read: the answer's own.
    func testRecentGateways_neverStandForTheAnswersOwn() {
        var single = Builder()
        single.add(Kind.gateway, address: "192.0.2.1")
        single.add(Kind.outputInterface, u32: 3)
        XCTAssertEqual(single.parsed(reusing: [ip("192.0.2.1")])?.gateways, [ip("192.0.2.1")])
        XCTAssertEqual(single.parsed(reusing: [ip("192.0.2.9")])?.gateways, [ip("192.0.2.1")])
        XCTAssertEqual(single.parsed(reusing: [ip("192.0.2.1"), ip("192.0.2.2")])?.gateways, [ip("192.0.2.1")])

        var direct = Builder()
        direct.add(Kind.outputInterface, u32: 3)
        XCTAssertEqual(direct.parsed(reusing: [ip("192.0.2.1")])?.gateways, [], "no gateway is no gateway")

        var multipath = Builder()
        multipath.add(Kind.multipath,
            Builder.nexthop(interface: 5, Builder.attribute(Kind.gateway, ip("10.0.0.1").bytes))
            + Builder.nexthop(interface: 6, Builder.attribute(Kind.gateway, ip("10.0.1.1").bytes)))
        XCTAssertEqual(multipath.parsed(reusing: [ip("10.0.0.1")])?.gateways, [ip("10.0.0.1"), ip("10.0.1.1")])
    }

    func testVia_givesAnIPv6GatewayToAnIPv4Route_singleAndMultipath() {
        var single = Builder()
        single.add(Kind.outputInterface, u32: 4)
        single.add(Kind.via, Builder.via("fe80::9"))
        XCTAssertEqual(single.parsed()?.gateways, [ip("fe80::9")])

        var multipath = Builder()
        multipath.add(Kind.multipath,
            Builder.nexthop(interface: 4, Builder.attribute(Kind.via, Builder.via("fe80::9")))
            + Builder.nexthop(interface: 5, Builder.attribute(Kind.gateway, ip("10.0.1.1").bytes)))
        XCTAssertEqual(multipath.parsed()?.gateways, [ip("fe80::9"), ip("10.0.1.1")])
    }

    func testVia_ofAnotherFamily_orTooShort() {
        var mpls = Builder()
        mpls.add(Kind.outputInterface, u32: 4)
        mpls.add(Kind.via, Builder.le16(28 /* AF_MPLS */) + [0, 1, 0, 0])
        XCTAssertEqual(mpls.parsed()?.gateways, [], "only IPv4 and IPv6 gateways count")
        var short = Builder()
        short.add(Kind.via, [2])
        XCTAssertNil(short.parsed(), "libnl cannot build an address without the family: the message fails")
    }

    func testLinkDown_singlePath_fromRtmFlags() {
        var message = Builder()
        message.flags = 0x10 | 0x2000  // RTNH_F_LINKDOWN | RTM_F_FIB_MATCH
        message.add(Kind.outputInterface, u32: 3)
        XCTAssertEqual(message.parsed()?.isLinkDown, true)
        message.flags = 0x2000
        XCTAssertEqual(message.parsed()?.isLinkDown, false)
    }

    func testLinkDown_needsANexthop_whenTheRouteHasNone() {
        var message = Builder()
        message.type = 7  // RTN_UNREACHABLE
        message.flags = 0x10
        XCTAssertEqual(message.parsed()?.isLinkDown, false, "no RTA_OIF, RTA_GATEWAY, ...: libnl makes no next hop")
    }

    func testLinkDown_multipath_onlyTheFirstNexthopCounts() {
        var first = Builder()
        first.add(Kind.multipath, Builder.nexthop(interface: 2, flags: 0x10) + Builder.nexthop(interface: 3))
        XCTAssertEqual(first.parsed()?.isLinkDown, true)
        var second = Builder()
        second.add(Kind.multipath, Builder.nexthop(interface: 2) + Builder.nexthop(interface: 3, flags: 0x10))
        XCTAssertEqual(second.parsed()?.isLinkDown, false)
    }

    func testLocalAndUnreachableTypes() {
        var local = Builder()
        local.type = 2
        local.table = 255
        local.add(Kind.table, u32: 255)
        local.add(Kind.preferredSource, address: "127.0.0.1")
        local.add(Kind.outputInterface, u32: 1)
        XCTAssertEqual(local.parsed(), RouteEntry(
            type: .local, table: 255, prefixLength: 32, outputInterface: 1, gateways: [],
            preferredSource: ip("127.0.0.1"), isLinkDown: false))
        var unreachable = Builder()
        unreachable.type = 7
        unreachable.destinationLength = 24
        XCTAssertEqual(unreachable.parsed(), RouteEntry(
            type: .unreachable, table: 254, prefixLength: 24, outputInterface: nil, gateways: [],
            preferredSource: nil, isLinkDown: false))
    }

    func testImplicitNexthop_besideMultipath_mustRepeatTheFirst() {
        var message = Builder()
        message.add(Kind.multipath,
            Builder.nexthop(interface: 2, Builder.attribute(Kind.gateway, ip("10.0.0.1").bytes))
            + Builder.nexthop(interface: 3))
        var repeated = message
        repeated.add(Kind.outputInterface, u32: 2)
        repeated.add(Kind.gateway, address: "10.0.0.1")
        XCTAssertEqual(repeated.parsed(), message.parsed(), "a matching implicit next hop is dropped")
        XCTAssertEqual(repeated.parsed()?.gateways.count, 1)
        var contradicting = message
        contradicting.add(Kind.outputInterface, u32: 3)
        XCTAssertNil(contradicting.parsed(), "libnl rejects the message: NLE_INVAL")
        var otherFlags = repeated
        otherFlags.flags = 0x10
        XCTAssertNil(otherFlags.parsed(), "the flags are always compared")
    }

    func testRepeatedAttribute_theLastWins() {
        var message = Builder()
        message.add(Kind.outputInterface, u32: 2)
        message.add(Kind.outputInterface, u32: 7)
        XCTAssertEqual(message.parsed()?.outputInterface, 7)
    }

    func testInterfaceIndexOfTwoToThe31_isNoInterface() {
        var message = Builder()
        message.add(Kind.outputInterface, u32: 0x8000_0001)
        XCTAssertNil(message.parsed()?.outputInterface, "libnl reads it as a negative int")
    }

    func testEncapOfAnyType_isRead_whereLibnlRefusedAllButMPLS() {
        // `ip route add 10.9.0.0/24 encap ip id 5 dst 192.0.2.9 dev v0`: the kernel's answer
        // carries RTA_ENCAP_TYPE 2 (LWTUNNEL_ENCAP_IP); libnl 3.7 fails with NLE_MSGTYPE_NOSUPPORT.
        var message = Builder()
        message.destinationLength = 24
        message.add(Kind.encapType, Builder.le16(2) + [0, 0])
        message.add(Kind.encap, Builder.attribute(1 /* LWTUNNEL_IP_ID */, [0, 0, 0, 0, 0, 0, 0, 5]))
        message.add(Kind.outputInterface, u32: 4)
        XCTAssertEqual(message.parsed()?.outputInterface, 4)
    }

    // MARK: - Malformed

    func testTruncatedHeader_isNil() {
        XCTAssertNil(Builder.parse([]))
        XCTAssertNil(Builder.parse(Array(Builder().payload.prefix(11))))
        XCTAssertNotNil(Builder.parse(Array(Builder().payload.prefix(12))))
    }

    func testAttributeOverflowingTheMessage_endsTheAttributes() {
        var message = Builder()
        message.add(Kind.outputInterface, u32: 3)
        message.attributes += Builder.le16(64) + Builder.le16(Kind.gateway) + ip("10.0.0.1").bytes
        let entry = message.parsed()
        XCTAssertEqual(entry?.outputInterface, 3, "what came before is kept")
        XCTAssertEqual(entry?.gateways, [])
    }

    func testAttributeShorterThanItsHeader_endsTheAttributes() {
        var message = Builder()
        message.add(Kind.outputInterface, u32: 3)
        message.attributes += Builder.le16(2) + Builder.le16(Kind.gateway) + ip("10.0.0.1").bytes
        XCTAssertEqual(message.parsed()?.gateways, [])
        XCTAssertEqual(message.parsed()?.outputInterface, 3)
    }

    func testIntegerAttributeTooShort_isMalformed_asLibnlsPolicySays() {
        var message = Builder()
        message.add(Kind.outputInterface, [3, 0])
        XCTAssertNil(message.parsed())
        var table = Builder()
        table.table = 9
        table.add(Kind.table, [1, 2])
        XCTAssertEqual(table.parsed()?.table, 9, "a short RTA_TABLE is ignored (libnl would read past it)")
    }

    func testNexthopLengthTooSmall_orTooBig_endsTheNexthops() {
        let good = Builder.nexthop(interface: 2, Builder.attribute(Kind.gateway, ip("10.0.0.1").bytes))
        for badLength: UInt16 in [0, 4, 7, 200] {
            var message = Builder()
            var bad = Builder.nexthop(interface: 3, Builder.attribute(Kind.gateway, ip("10.0.1.1").bytes))
            bad.replaceSubrange(0..<2, with: Builder.le16(badLength))
            message.add(Kind.multipath, good + bad)
            let entry = message.parsed()
            XCTAssertEqual(entry?.gateways, [ip("10.0.0.1")], "rtnh_len \(badLength)")
            XCTAssertEqual(entry?.outputInterface, 2, "rtnh_len \(badLength)")
        }
    }

    func testNestedAttributeOverflowingItsNexthop_isNotRead() {
        // The nexthop says 12 bytes; its gateway attribute (8) would run past them.
        var hop = Builder.nexthop(interface: 2, Builder.attribute(Kind.gateway, ip("10.0.0.1").bytes))
        hop.replaceSubrange(0..<2, with: Builder.le16(12))
        var message = Builder()
        message.add(Kind.multipath, hop)
        XCTAssertEqual(message.parsed()?.gateways, [])
        XCTAssertEqual(message.parsed()?.outputInterface, 2)
    }

    func testEveryTruncation_andEveryByteFlip_neverCrashes() {
        var message = Builder()
        message.family = UInt8(AF_INET6)
        message.add(Kind.table, u32: 254)
        message.add(Kind.preferredSource, address: "2001:db8::5")
        message.add(Kind.multipath,
            Builder.nexthop(interface: 2, Builder.attribute(Kind.gateway, ip("fe80::1").bytes))
            + Builder.nexthop(interface: 3, Builder.attribute(Kind.via, Builder.via("192.0.2.1"))))
        let payload = message.payload
        for count in 0...payload.count {
            _ = Builder.parse(Array(payload.prefix(count)))
        }
        for index in payload.indices {
            for value: UInt8 in [0, 1, 3, 4, 7, 8, 0x7F, 0xFF] {
                var mutated = payload
                mutated[index] = value
                _ = Builder.parse(mutated)
            }
        }
    }
}
