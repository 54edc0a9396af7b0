import ReachabilitySystem
/// The destinations the default route is found by (see `RouteOracle`).
///
/// They lie far apart in global unicast space and avoid well-known resolvers, which VPNs and
/// split-DNS setups often route specifically. A route event whose prefix covers none of them
/// cannot change the default route's answer.
package enum DefaultRouteProbes {
    package static let ipv4 = ["11.22.33.44", "45.67.89.10", "77.11.22.33", "99.88.77.66", "131.2.3.4", "171.18.19.20", "211.3.4.5",
                               "223.4.5.6"].map { try! IPAddress($0) }
    package static let ipv6 = ["2003:5::1", "2400:2::1", "2600:3::1", "2610:9::1", "2800:6::1", "2a00:1::1", "2a10:7::1",
                               "2c0f:4::1"].map { try! IPAddress($0) }

    /// The probes of `family`: no table to hash into, as every default-route lookup asks.
    package static func of(_ family: IPAddress.Family) -> [IPAddress] {
        family == .ipv4 ? ipv4 : ipv6
    }

    /// Whether a route to `prefix` covers one of the probes, and so can move the default route.
    package static func covered(by prefix: RoutePrefix) -> Bool {
        // The default route itself (length 0) covers every probe of its family.
        if prefix.length == 0 { return true }
        return (prefix.family == .ipv4 ? ipv4 : ipv6).contains(where: prefix.contains)
    }
}
