/// Interface types from what the kernel says of a link (semantics.md, "Interface types").
///
/// Evidence in NetworkManager's order: the link kind, then the hardware (ARPHRD) type. Wi-Fi and
/// WWAN need sysfs or ioctls, which the paths issue adds; until then an 802.11 device is
/// reported as `wiredEthernet`, since it is ARPHRD_ETHER.
enum InterfaceClassifier {
    private static let tunnelKinds: Set<String> = [
        "tun", "wireguard", "ipip", "gre", "gretap", "ip6gre", "ip6gretap", "sit", "ip6tnl", "vti", "vti6",
        "xfrm", "geneve", "ipoib",
    ]

    static func type(of link: LinkState) -> NetworkInterface.InterfaceType {
        if link.isLoopback || link.hardwareType == 772 { return .loopback }
        if let kind = link.kind, tunnelKinds.contains(kind) { return .other }
        switch link.hardwareType {
        case 519: return .cellular  // ARPHRD_RAWIP: qmi_wwan, rmnet
        case 1: return .wiredEthernet  // ARPHRD_ETHER, incl. veth, bridge, vlan
        default: return .other  // PPP, NONE (tun), tunnels
        }
    }

    static func interface(for link: LinkState) -> NetworkInterface {
        NetworkInterface(name: link.name, index: link.index, type: type(of: link))
    }
}
