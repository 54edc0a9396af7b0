@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// Synthetic kernel state for the pure tests: links, addresses and route answers built by hand.
enum Fixture {
    /// IFF_UP | IFF_RUNNING | IFF_LOWER_UP: a link that is up and has carrier.
    static let upWithCarrier: LinkState.Flags = [.up, .running, .lowerUp]

    static let loopback = LinkState(
        index: 1, name: "lo", flags: [.up, .running, .lowerUp, .loopback], operationalState: .unknown,
        hardwareType: 772, kind: nil)

    /// An Ethernet link; by default up, with carrier, operstate up.
    static func link(
        _ index: Int = 2, _ name: String = "eth0", flags: LinkState.Flags = upWithCarrier,
        operstate: LinkState.OperationalState = .up, hardwareType: UInt32 = 1, kind: String? = nil
    ) -> LinkState {
        LinkState(index: index, name: name, flags: flags, operationalState: operstate, hardwareType: hardwareType, kind: kind)
    }

    /// A parsed address; the tests only pass literals that parse.
    static func ip(_ text: String) -> IPAddress {
        do { return try IPAddress(text) } catch { fatalError("fixture address '\(text)' does not parse: \(error)") }
    }

    /// What the kernel answers with a route: `ip route get` showing `TYPE ... [via GATEWAY] dev OIF`.
    static func route(
        _ type: RouteType = .unicast, dev outputInterface: Int? = 2, via gateways: [String] = [],
        prefixLength: Int = 32, linkDown: Bool = false, table: UInt32 = 254
    ) -> RouteAnswer {
        .route(RouteEntry(
            type: type, table: table, prefixLength: prefixLength, outputInterface: outputInterface,
            gateways: gateways.map(ip), preferredSource: nil, isLinkDown: linkDown))
    }

    /// A snapshot of `links`, each address given as (interface index, address).
    static func snapshot(_ links: [LinkState], addresses: [(Int, String)] = []) -> KernelSnapshot {
        var snapshot = KernelSnapshot()
        for link in links { snapshot.links[link.index] = link }
        snapshot.addresses = addresses.map { index, text in
            InterfaceAddress(interfaceIndex: index, address: ip(text), prefixLength: ip(text).family == .ipv4 ? 24 : 64,
                             scope: kernelScope(of: ip(text)))
        }
        return snapshot
    }

    /// The `ifa_scope` the kernel gives an address added without `scope`: host for loopback
    /// addresses, link for IPv6 `fe80::/10`, universe otherwise.
    static func kernelScope(of address: IPAddress) -> UInt8 {
        let bytes = address.bytes
        switch address.family {
        case .ipv4: return bytes[0] == 127 ? 254 : 0
        case .ipv6:
            if bytes == [UInt8](repeating: 0, count: 15) + [1] { return 254 }
            return bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 ? 253 : 0
        }
    }

    /// Every combination of the nine flags, as the index bits 0...8 select them in bit order.
    static let allNineFlags: [ReachabilityFlags] = [
        .transientConnection, .reachable, .connectionRequired, .connectionOnTraffic, .interventionRequired,
        .connectionOnDemand, .isLocalAddress, .isDirect, .isWWAN,
    ]

    static func flags(combination: Int) -> ReachabilityFlags {
        var flags: ReachabilityFlags = []
        for (bit, flag) in allNineFlags.enumerated() where combination & (1 << bit) != 0 {
            flags.insert(flag)
        }
        return flags
    }
}
