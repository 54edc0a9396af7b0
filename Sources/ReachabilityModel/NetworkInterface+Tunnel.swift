import ReachabilitySystem
extension NetworkInterface {
    /// The link kinds (IFLA_INFO_KIND) that carry traffic inside another packet: VPNs (`tun`,
    /// `wireguard`, `xfrm`, `vti`), IP tunnels and overlays (`vxlan`, `geneve`, ...).
    ///
    /// `ppp` is not among them: the kernel does not tell a VPN's PPP (L2TP, PPTP) from a modem's
    /// or PPPoE; `kind` says `ppp`, and the caller decides.
    public static let tunnelKinds: Set<String> = [
        "tun", "wireguard", "xfrm", "vti", "vti6", "ipip", "sit", "ip6tnl", "gre", "gretap", "ip6gre",
        "ip6gretap", "erspan", "ip6erspan", "vxlan", "geneve", "bareudp",
    ]

    /// Whether the link is a tunnel: its `kind` is one of `tunnelKinds`.
    public var isTunnel: Bool {
        kind.map(Self.tunnelKinds.contains) ?? false
    }
}

extension NetworkPath {
    /// Whether the target's route leaves by a tunnel (a VPN, an IP tunnel, an overlay): its
    /// interface's `isTunnel`. A VPN that takes the default route with the two halves
    /// `0.0.0.0/1` and `128.0.0.0/1` (or `::/1` and `8000::/1`) counts: those halves are the
    /// default route for the zero address and the general path (docs/semantics.md, "Tunnels").
    public var isTunneled: Bool {
        interface?.isTunnel ?? false
    }
}
