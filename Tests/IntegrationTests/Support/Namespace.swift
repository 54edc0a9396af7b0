import Foundation
import NetworkReachability
import Synchronization
import XCTest

/// Why these tests cannot run on this machine, or nil when they can. Probed once, on first use:
/// the tests need root and a working `ip netns add`.
let namespaceSupportProblem: String? = {
    let euid = geteuid()
    guard euid == 0 else {
        return "integration tests make network namespaces and need root (running as euid \(euid))"
    }
    removeNamespacesOfDeadRuns()
    let probe = "nrx-it-\(getpid())-probe"
    do {
        try ip("netns", "add", probe)
    } catch {
        return "cannot make a test network namespace: \(error)"
    }
    _ = try? ip("netns", "del", probe)
    return nil
}()

private let namespaceSerial = Atomic<Int>(0)

/// The prefixes of the namespaces these tests make: `nrx-it-PID-N-TEST`, and `nrx-path-PID-N-TEST` for the path tests.
let namespacePrefixes = ["nrx-it-", "nrx-path-"]

/// Deletes the namespaces with one of `prefixes` (`PREFIX-PID-...`) of test runs that crashed (and
/// so could not run their `defer`s): those whose process is gone and that are older than any run
/// lasts. The age guards against a run of another engineer in another PID namespace, whose PID
/// means nothing here.
func removeNamespacesOfDeadRuns(prefixes: [String] = namespacePrefixes) {
    let listed = ((try? ip("netns", "list")) ?? "").split(separator: "\n").compactMap { $0.split(separator: " ").first }
    for name in listed where prefixes.contains(where: { name.hasPrefix($0) }) {
        let fields = name.split(separator: "-")
        guard fields.count > 2, let pid = Int32(fields[2]), pid != getpid() else { continue }
        guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
        var info = stat()
        guard stat("/run/netns/\(name)", &info) == 0, time(nil) - info.st_mtim.tv_sec > 600 else { continue }
        _ = try? ip("netns", "del", String(name))
    }
}

/// Runs `body` with a fresh network namespace, `PREFIX-PID-N-TEST` (`nrx-it-` unless `prefix` says
/// otherwise), whose `lo` is up.
///
/// The namespace is deleted on every exit path, and the test fails if it is still listed after.
/// A `TunCarrierHolder` started in it must be stopped by `body` (with `defer`).
/// - Throws: `XCTSkip` when namespaces cannot be made here (not root, no `ip netns`).
func withNamespace(
    _ function: String = #function, prefix: String = "nrx-it", file: StaticString = #filePath, line: UInt = #line,
    _ body: (Namespace) throws -> Void
) throws {
    if let problem = namespaceSupportProblem {
        throw XCTSkip(problem, file: file, line: line)
    }
    let serial = namespaceSerial.add(1, ordering: .relaxed).newValue
    let tag = String(function.prefix { $0 != "(" }.filter { $0.isLetter || $0.isNumber }.suffix(28))
    let name = "\(prefix)-\(getpid())-\(serial)-\(tag)"
    try ip("netns", "add", name)
    defer {
        removeNamespaceConfiguration(name)
        deleteTestNamespace(name, file: file, line: line)
    }
    let namespace = Namespace(name: name)
    try namespace.ip("link", "set", "lo", "up")
    try body(namespace)
}

/// Deletes a test's namespace, failing the test when it cannot or when it is still listed after.
func deleteTestNamespace(_ name: String, file: StaticString = #filePath, line: UInt = #line) {
    do {
        try ip("netns", "del", name)
    } catch {
        XCTFail("could not delete namespace \(name): \(error)", file: file, line: line)
    }
    if namespaceIsListed(name) {
        XCTFail("namespace \(name) is still listed after deleting it", file: file, line: line)
    }
}

/// `/etc/netns/NAME`, where `ip netns exec` finds per-namespace configuration files.
private func namespaceConfigurationDirectory(_ name: String) -> String { "/etc/netns/\(name)" }

private func removeNamespaceConfiguration(_ name: String) {
    let directory = namespaceConfigurationDirectory(name)
    guard FileManager.default.fileExists(atPath: directory) else { return }
    try? FileManager.default.removeItem(atPath: directory)
    rmdir("/etc/netns")  // only when empty: other namespaces' files stay
}

/// A throwaway network namespace made by `withNamespace`.
struct Namespace: Sendable {
    let name: String

    /// The namespace as the library names it.
    var reference: NetworkNamespace { .named(name) }

    /// Runs `ip -n NAME ARGUMENTS`. - Throws: `CommandFailure` with `ip`'s stderr.
    @discardableResult
    func ip(_ arguments: String...) throws -> String {
        try ipCommand(arguments)
    }

    @discardableResult
    func ipCommand(_ arguments: [String]) throws -> String {
        try IntegrationTests.ip(["-n", name] + arguments)
    }

    /// Runs `ip -n NAME ARGUMENTS` and returns its output whatever its status: for questions the
    /// kernel may refuse, such as `route get`.
    func ipAnswer(_ arguments: [String]) throws -> CommandOutput {
        try runCommand(ipExecutable, ["-n", name] + arguments)
    }

    // MARK: - Monitors

    func monitor(_ address: String) throws -> PathMonitor {
        try PathMonitor(address: address, namespace: reference)
    }

    func monitor(local: String?, remote: String?) throws -> PathMonitor {
        try PathMonitor(localAddress: local, remoteAddress: remote, namespace: reference)
    }

    func generalMonitor(policy: InterfacePolicy = InterfacePolicy()) throws -> PathMonitor {
        let monitor = PathMonitor(namespace: reference, interfacePolicy: policy)
        if let error = monitor.setupError { throw error }
        return monitor
    }

    // MARK: - Topology

    /// Adds a veth pair with both ends in this namespace; `addresses` go on `name`
    /// (IPv6 ones with `nodad`, so they are usable at once); the peer holds none.
    /// - Parameter linkLocal: false sets `addrgenmode none` on both ends, so neither gets an fe80:: address.
    func addVeth(_ name: String = "v0", peer: String? = nil, addresses: [String] = [], up: Bool = true, peerUp: Bool = true,
                 linkLocal: Bool = true) throws {
        let peer = peer ?? name + "p"
        try ip("link", "add", name, "type", "veth", "peer", "name", peer)
        if !linkLocal {
            try ip("link", "set", name, "addrgenmode", "none")
            try ip("link", "set", peer, "addrgenmode", "none")
        }
        for address in addresses {
            try addAddress(address, to: name)
        }
        if peerUp { try ip("link", "set", peer, "up") }
        if up { try ip("link", "set", name, "up") }
    }

    func addAddress(_ address: String, to device: String) throws {
        var arguments = ["addr", "add", address, "dev", device]
        if address.contains(":") { arguments.append("nodad") }
        try ipCommand(arguments)
    }

    /// The standard LAN of these tests: `v0` holds `plan.hostCIDR`, its peer `v0p` is up, and
    /// `plan.remoteNet` is routed via `plan.gateway` (an on-link address nobody holds).
    /// - Parameter linkLocal: false keeps IPv6 link-local addresses (and their late DAD events) off the pair.
    func addLAN(_ plan: AddressPlan, device: String = "v0", remoteRoute: Bool = true, linkLocal: Bool = true) throws {
        try addVeth(device, addresses: [plan.hostCIDR], linkLocal: linkLocal)
        if remoteRoute {
            try ip(plan.family, "route", "add", plan.remoteNet, "via", plan.gateway, "dev", device)
        }
        try waitForLink(device, carrier: true)
    }

    /// Adds a tun device (`ip tuntap add mode tun`), with `address` and up. No process holds it
    /// open, so it has no carrier.
    func addTun(_ name: String = "t0", addresses: [String]) throws {
        try ip("tuntap", "add", "mode", "tun", "name", name)
        for address in addresses {
            try addAddress(address, to: name)
        }
        try ip("link", "set", name, "up")
    }

    // MARK: - Kernel state

    /// The link as `ip -o link show` prints it.
    func link(_ device: String) throws -> KernelLink {
        try KernelLink(parsing: ip("-o", "link", "show", "dev", device))
    }

    /// Waits until the kernel reports `device` with (or without) carrier, operstate included:
    /// the kernel updates operstate asynchronously (linkwatch) after the carrier bit.
    func waitForLink(_ device: String, carrier: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        try waitUntil("\(device) in \(name) \(carrier ? "has" : "lacks") carrier", file: file, line: line) {
            let link = try self.link(device)
            return carrier ? link.hasCarrier && link.state != "DOWN" : !link.flags.contains("LOWER_UP") && link.state != "UP"
        }
    }

    /// Waits until `ip link` shows `device` in operstate `state`.
    func waitForLink(_ device: String, state: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try waitUntil("\(device) in \(name) has operstate \(state)", file: file, line: line) {
            try self.link(device).state == state
        }
    }

    /// Writes `/etc/netns/NAME/resolv.conf` (removed with the namespace): this namespace's resolver configuration.
    func setResolvConf(_ text: String) throws {
        let directory = namespaceConfigurationDirectory(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try text.write(toFile: directory + "/resolv.conf", atomically: true, encoding: .utf8)
    }

    /// The interface index of `device`.
    func index(of device: String) throws -> Int {
        try link(device).index
    }
}

/// The addresses one test uses for one family; the tests run once per family.
struct AddressPlan: Sendable, CustomStringConvertible {
    /// `-4` or `-6`, for `ip`.
    var family: String
    var description: String
    /// Held by `v0`.
    var host: String
    var prefixLength: Int
    /// On `v0`'s subnet, held by nobody.
    var gateway: String
    /// On `v0`'s subnet, held by nobody.
    var onLink: String
    /// An address that nobody in the namespace holds and that is not on any link.
    var foreign: String
    var loopback: String
    var zero: String
    /// A global destination that no route of the tests covers but a default route.
    var globalProbe: String
    /// Prefix `n` for route tests: `10.n.0.0/16` or `2001:db8:n::/48`.
    var net: @Sendable (Int) -> String
    /// An address inside `net(n)`.
    var inNet: @Sendable (Int) -> String

    var hostCIDR: String { "\(host)/\(prefixLength)" }
    var remoteNet: String { net(20) }
    var remote: String { inNet(20) }

    static let ipv4 = AddressPlan(
        family: "-4", description: "IPv4", host: "10.9.0.2", prefixLength: 24, gateway: "10.9.0.1", onLink: "10.9.0.5",
        foreign: "10.99.0.1", loopback: "127.0.0.1", zero: "0.0.0.0", globalProbe: "203.0.113.77",
        net: { "10.\($0).0.0/16" }, inNet: { "10.\($0).0.5" }
    )

    static let ipv6 = AddressPlan(
        family: "-6", description: "IPv6", host: "2001:db8:9::2", prefixLength: 64, gateway: "2001:db8:9::1",
        onLink: "2001:db8:9::5", foreign: "2001:db8:99::1", loopback: "::1", zero: "::",
        globalProbe: "2001:db8:ffff::77", net: { "2001:db8:\($0)::/48" }, inNet: { "2001:db8:\($0)::5" }
    )

    /// The same plan on a second link: `v1` with `10.19.0.2/24` or `2001:db8:19::2/64`, gateway `.1`.
    var second: (hostCIDR: String, gateway: String) {
        family == "-4" ? ("10.19.0.2/24", "10.19.0.1") : ("2001:db8:19::2/64", "2001:db8:19::1")
    }
}
