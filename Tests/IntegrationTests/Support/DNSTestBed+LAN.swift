import Foundation
import NetworkReachability
import Synchronization
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

// The network of the host-name tests.

/// The addresses that the test servers give out, and what the network of `addLAN` makes of them.
enum LAN {
    /// Held by `v0` (10.9.0.2/24).
    static let onLink = "10.9.0.5"
    static let gateway = "10.9.0.1"
    /// In 10.20.0.0/16, routed via `gateway`.
    static let remote = "10.20.0.5"
    /// In 10.30.0.0/16, covered by an `unreachable` route.
    static let refused = "10.30.0.5"
    /// On `v1` (10.19.0.2/24), which has no carrier; only with `addDisconnectedLink`.
    static let disconnected = "10.19.0.5"

    /// On `v0`'s 2001:db8:9::/64.
    static let onLink6 = "2001:db8:9::5"
    static let gateway6 = "2001:db8:9::1"
    /// In 2001:db8:20::/48, routed via `gateway6`.
    static let remote6 = "2001:db8:20::5"
    /// On `v1`'s 2001:db8:19::/64, which has no carrier; only with `addDisconnectedLink`.
    static let disconnected6 = "2001:db8:19::5"
}

extension DNSTestBed {
    /// `v0` with 10.9.0.2/24 and 2001:db8:9::2/64 (no link-local addresses, so no late DAD events),
    /// its peer up; 10.20.0.0/16 via 10.9.0.1, 2001:db8:20::/48 via 2001:db8:9::1, and
    /// `unreachable 10.30.0.0/16`. No default route.
    func addLAN() throws {
        try namespace.addLAN(.ipv4, linkLocal: false)
        try namespace.addAddress("2001:db8:9::2/64", to: "v0")
        try namespace.ip("-6", "route", "add", "2001:db8:20::/48", "via", LAN.gateway6, "dev", "v0")
        try namespace.ip("route", "add", "unreachable", "10.30.0.0/16")
    }

    /// `v1` with 10.19.0.2/24 and 2001:db8:19::2/64, up, but its peer down: no carrier.
    func addDisconnectedLink() throws {
        try namespace.addVeth("v1", addresses: ["10.19.0.2/24", "2001:db8:19::2/64"], peerUp: false, linkLocal: false)
        try namespace.waitForLink("v1", carrier: false)
    }

    /// `/etc/netns/NAME/resolv.conf` naming the test server.
    func useTestServer(options: String? = nil) throws {
        try replaceByRename("resolv.conf", with: Self.resolvConf(nameServer: Self.serverAddress, options: options))
    }

    /// A monitor of `host` in the bed's namespace.
    func monitor(host: String, options: HostResolutionOptions = .default) throws(ReachabilityError) -> PathMonitor {
        try PathMonitor(host: host, namespace: namespace.reference, options: options)
    }
}

/// The flags and path that semantics.md gives a host name whose addresses the kernel judged as
/// `verdicts` (in the resolver's order): the best rank wins, ties go to the earliest.
func expectedWinner(of verdicts: [KernelVerdict]) -> Int? {
    guard let best = verdicts.map(\.rank).max() else { return nil }
    return verdicts.firstIndex { $0.rank == best }
}
