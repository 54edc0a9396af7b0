import ReachabilityModel
import ReachabilityResolution
import XCTest

/// Which paths the servers of resolv.conf serve, behind resolved's stub and beside networkd's links.
final class NameServerScopeTests: XCTestCase {
    private func addresses(_ texts: String...) -> [IPAddress] { texts.map { try! IPAddress($0) } }

    func testResolvConf_namesTheAddressesOfItsNameserverLines() {
        let text = """
            # comment
            nameserver 127.0.0.53 # trailing
            nameserver\t2001:db8::53
            nameserver fe80::1%2
            ;nameserver 192.0.2.9
            nameserverx 192.0.2.10
            nameserver not-an-address
            nameserver
            options edns0 trust-ad
            """
        XCTAssertEqual(NameServerConfiguration.nameServers(inResolvConf: text).map(\.description),
                       ["127.0.0.53", "2001:db8::53", "fe80::1%2"])
        XCTAssertFalse(NameServerConfiguration.hasNameServer(inResolvConf: "# No DNS servers known.\nsearch .\n"))
    }

    func testScope_table() {
        let stub = addresses("127.0.0.53")
        let upstream = addresses("192.0.2.53")
        let rows: [(what: String, servers: [IPAddress], upstreams: [IPAddress]?, links: [Int: Set<IPAddress>], scope: NameServerScope)] = [
            ("no nameserver line", [], nil, [:], .none),
            ("a plain server", addresses("192.0.2.1"), nil, [:], .global),
            ("the stub, not seen through (another namespace, or resolved's file unreadable)", stub, nil, [:], .global),
            ("the stub with no upstream", stub, [], [:], .none),
            ("the stub and its proxy with no upstream", addresses("127.0.0.53", "127.0.0.54"), [], [:], .none),
            ("the stub with a global upstream", stub, upstream, [:], .global),
            ("the stub with v2's upstream", stub, upstream, [2: Set(upstream)], .links([2])),
            ("the stub with an upstream of two links", stub, upstream, [2: Set(upstream), 3: Set(upstream)], .links([2, 3])),
            ("another link's server does not make this one a link's", stub, addresses("192.0.2.53", "198.51.100.53"),
             [2: Set(upstream)], .global),
            ("a link-local upstream written with its link", stub, addresses("fe80::1%4"), [:], .links([4])),
            ("NetworkManager's dnsmasq: its upstreams cannot be read", addresses("127.0.1.1"), [], [:], .global),
            ("Docker's embedded server", addresses("127.0.0.11"), [], [:], .global),
            ("the stub beside a plain server", addresses("127.0.0.53", "192.0.2.1"), [], [:], .global),
        ]
        for row in rows {
            XCTAssertEqual(NameServerConfiguration.scope(servers: row.servers, upstreams: row.upstreams, linkServers: row.links),
                           row.scope, row.what)
        }
    }

    func testScope_servesAPath_byItsInterface() {
        XCTAssertTrue(NameServerScope.global.serves(interfaceIndex: 2))
        XCTAssertFalse(NameServerScope.global.serves(interfaceIndex: nil), "a path with no interface has no server")
        XCTAssertFalse(NameServerScope.none.serves(interfaceIndex: 2))
        XCTAssertTrue(NameServerScope.links([2]).serves(interfaceIndex: 2))
        XCTAssertFalse(NameServerScope.links([2]).serves(interfaceIndex: 3))
        XCTAssertTrue(NameServerScope.links([]).hasServer == true && NameServerScope.none.hasServer == false)
    }
}
