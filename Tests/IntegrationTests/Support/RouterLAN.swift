import Dispatch
import Foundation
import NetworkReachability
import XCTest

/// A SLAAC host, as most servers, containers and devices without a network manager are: a
/// client namespace whose kernel learns its IPv6 default routes from Router Advertisements
/// (`accept_ra` 2, forwarding off), and routers in namespaces of their own that send them
/// (`Tests/Servers/router_advertisement.py`). Router `i` reaches the client's `c<i>` from its `r0`.
struct RouterLAN {
    let client: Namespace
    let routers: [Namespace]
    /// Each router's link-local address: the gateway of the default route it advertises.
    let gateways: [String]

    /// A destination that only a default route covers.
    static let remote = "2001:db8::1"
    /// The client's global address (on `lo`), the source of `sendTraffic`.
    static let clientAddress = "2001:db8:f::1"

    /// When an advertisement went out: before the script started and after it ended. The kernel
    /// took it in between, and the route expires `lifetime` seconds after that.
    struct Sent {
        var before: DispatchTime
        var after: DispatchTime
    }

    /// Sends one Router Advertisement from router `router` with `lifetime` seconds and RFC 4191's
    /// `preference` (high, medium, low).
    @discardableResult
    /// With `dnsServer`, the advertisement carries an RDNSS option, which the kernel hands to user
    /// space with `RTM_NEWNDUSEROPT`.
    func advertise(from router: Int = 0, lifetime: Int, preference: String = "medium", dnsServer: String? = nil) throws -> Sent {
        let before = DispatchTime.now()
        let options = ["--interface", "r0", "--lifetime", String(lifetime), "--preference", preference]
            + (dnsServer.map { ["--rdnss", $0] } ?? [])
        let output = try runCommand(ipExecutable, ["netns", "exec", routers[router].name, pythonExecutable!, Self.script] + options)
        guard output.status == 0 else {
            throw CommandFailure(commandLine: "router_advertisement.py in \(routers[router].name)", status: output.status,
                                 standardError: output.standardError)
        }
        return Sent(before: before, after: .now())
    }

    /// The gateway `ip -6 route get` gives for `remote` now (nil when the kernel refuses), and its line.
    func kernelRoute() throws -> (gateway: String?, line: String) {
        let answer = try client.ipAnswer(["-6", "route", "get", Self.remote])
        guard answer.status == 0 else { return (nil, answer.standardError.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let words = answer.standardOutput.split(separator: " ").map(String.init)
        let gateway = words.firstIndex(of: "via").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
        return (gateway, answer.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether the client's table lists a default route via `gateway`: an expired route stays
    /// listed until the kernel's garbage collection deletes it (and only then sends a message).
    func tableLists(gateway: String) throws -> Bool {
        try client.ip("-6", "route", "show", "default").contains("via \(gateway) ")
    }

    /// One UDP datagram from the client to `remote`: the traffic that makes the kernel resolve
    /// the chosen router's neighbour entry (and, with no answer, mark it failed).
    func sendTraffic() throws {
        let script = "import socket; socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).sendto(b'x', ('\(Self.remote)', 9))"
        _ = try runCommand(ipExecutable, ["netns", "exec", client.name, pythonExecutable!, "-c", script])
    }

    /// Router `router` stops answering neighbour solicitations: its link-local address goes.
    func silence(router: Int) throws {
        try routers[router].ip("-6", "addr", "flush", "dev", "r0", "scope", "link")
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Servers/router_advertisement.py").path
}

/// Runs `body` with a `RouterLAN` of `count` routers, none of which has advertised yet. Every
/// namespace is deleted afterwards, whatever happened.
///
/// The client probes a router's neighbour entry after 1 s of traffic, 200 ms apart (the kernel's
/// defaults are 5 s and 1 s), so that a router that stopped answering fails within the test's timeout.
func withRouterLAN(routers count: Int = 1, function: String = #function, _ body: (RouterLAN) throws -> Void) throws {
    guard pythonExecutable != nil else { throw XCTSkip("no python3 to send Router Advertisements with") }
    try withNamespaces(count + 1, function: function) { namespaces in
        let client = namespaces[0]
        let routers = Array(namespaces.dropFirst())
        try client.setSysctl("net.ipv6.conf.all.forwarding", "0")
        for (index, router) in routers.enumerated() {
            let link = "c\(index)"
            try client.ip("link", "add", link, "type", "veth", "peer", "name", "r0", "netns", router.name)
            // No duplicate address detection: the link-local addresses are usable at once.
            for (key, value) in [("conf.\(link).accept_ra", "2"), ("conf.\(link).accept_dad", "0"),
                                 ("neigh.\(link).delay_first_probe_time", "1"), ("neigh.\(link).retrans_time_ms", "200")] {
                try client.setSysctl("net.ipv6." + key, value)
            }
            try router.setSysctl("net.ipv6.conf.r0.accept_dad", "0")
            try router.ip("link", "set", "r0", "up")
            try client.ip("link", "set", link, "up")
        }
        try client.ip("addr", "add", "\(RouterLAN.clientAddress)/128", "dev", "lo", "nodad")
        // An advertisement that comes before the client's link has its link-local address is dropped.
        for index in routers.indices { _ = try waitForLinkLocal(in: client, on: "c\(index)") }
        let gateways = try routers.map { try waitForLinkLocal(in: $0, on: "r0") }
        try body(RouterLAN(client: client, routers: routers, gateways: gateways))
    }
}

/// `withRouterLAN`, with a `RouterLANMonitors` of its client scheduled, unscheduled afterwards.
func withWatchedRouterLAN(routers count: Int = 1, function: String = #function,
                          _ body: (RouterLAN, RouterLANMonitors) throws -> Void) throws {
    try withRouterLAN(routers: count, function: function) { lan in
        let watched = try RouterLANMonitors(lan)
        defer { watched.stop() }
        try body(lan, watched)
    }
}

/// Waits until `device` in `namespace` has a link-local address that is no longer tentative. - Returns: it.
private func waitForLinkLocal(in namespace: Namespace, on device: String) throws -> String {
    var address = ""
    try waitUntil("\(device) in \(namespace.name) has a usable link-local address") {
        let shown = try namespace.ip("-6", "-o", "addr", "show", "dev", device, "scope", "link")
        guard !shown.contains("tentative"), let word = shown.split(separator: " ").first(where: { $0.hasPrefix("fe80::") }) else {
            return false
        }
        address = String(word.prefix { $0 != "/" })
        return true
    }
    return address
}

/// `withNamespace` `count` times over, each deleted on every exit path.
private func withNamespaces(_ count: Int, function: String, made: [Namespace] = [], _ body: ([Namespace]) throws -> Void) throws {
    guard made.count < count else { return try body(made) }
    try withNamespace(function) { namespace in
        try withNamespaces(count, function: function, made: made + [namespace], body)
    }
}

/// A path as delivered, and when.
struct StampedPath: Sendable {
    var at: DispatchTime
    var path: NetworkPath

    var gateway: String? { path.gateways.first?.addressString }
}

/// Monitors of a `RouterLAN`'s client, scheduled, whose deliveries are recorded with their time:
/// the general path and an address that only a default route covers.
final class RouterLANMonitors {
    let monitors: [PathMonitor]
    let deliveries: [Recorder<StampedPath>]
    private let queue = DispatchQueue(label: "router-lan-monitors")

    init(_ lan: RouterLAN) throws {
        monitors = [try lan.client.generalMonitor(), try lan.client.monitor(RouterLAN.remote)]
        deliveries = monitors.map { _ in Recorder<StampedPath>() }
        for (monitor, recorder) in zip(monitors, deliveries) {
            monitor.pathUpdateHandler = { recorder.append(StampedPath(at: .now(), path: $0)) }
            XCTAssertTrue(monitor.setDispatchQueue(queue))
        }
    }

    func stop() {
        for monitor in monitors { monitor.unschedule() }
    }

    /// Waits until every monitor's last delivery satisfies `predicate`. - Returns: those deliveries.
    @discardableResult
    func waitUntilEach(_ what: String, file: StaticString = #filePath, line: UInt = #line,
                       _ predicate: (StampedPath) -> Bool) throws -> [StampedPath] {
        try zip(monitors, deliveries).map { monitor, recorder in
            guard recorder.wait(until: "\(monitor.targetDescription): \(what)", file: file, line: line, { $0.last.map(predicate) ?? false }),
                  let last = recorder.all.last else { throw TimedOut(what: what) }
            return last
        }
    }

    /// Waits until every monitor's path is satisfied through `gateway`. - Returns: those deliveries.
    @discardableResult
    func waitUntilReachable(via gateway: String, _ what: String = "reachable via the router",
                            file: StaticString = #filePath, line: UInt = #line) throws -> [StampedPath] {
        try waitUntilEach(what, file: file, line: line) { $0.path.status == .satisfied && $0.gateway == gateway }
    }

    /// Waits until no monitor's path is satisfied. - Returns: those deliveries.
    @discardableResult
    func waitUntilUnreachable(_ what: String, file: StaticString = #filePath, line: UInt = #line) throws -> [StampedPath] {
        try waitUntilEach(what, file: file, line: line) { $0.path.status == .unsatisfied }
    }

    /// Every delivery after `start`, of every monitor.
    func delivered(after start: DispatchTime) -> [StampedPath] {
        deliveries.flatMap { $0.all.filter { $0.at > start } }
    }
}

/// Sleeps until `deadline`: the scenario's own clock (an advertisement due at 2 s, a look just
/// past an expiry), not a wait for a condition.
func pause(until deadline: DispatchTime) {
    let now = DispatchTime.now().uptimeNanoseconds
    guard deadline.uptimeNanoseconds > now else { return }
    usleep(UInt32((deadline.uptimeNanoseconds - now) / 1000))
}
